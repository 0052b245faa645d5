import type { Transaction } from "sequelize";
import { z } from "zod";
import { ADDRESS_FIELDS } from "~/lib/shared/address-schema";
import { getConfig } from "~/lib/server/config.server";
import { recordMarketingConsent } from "~/services/marketing-consent.server";
import { getDb } from "~/models/db.server";
import { badRequest, conflict, notFound } from "~/lib/server/errors.server";
import { centsToDecimal, formatPrice, parseCents, toCents } from "~/lib/shared/money";
import type { AddressSnapshot } from "~/models/index.server";
import { getPaymentGateway } from "~/payments/index.server";
import { ADDRESS_NOT_FOUND, getAddress, parseAddressInput } from "../addresses.server";
import { getOrderForUser, type OrderJson } from "../orders.server";
import { isGuestCart, type CartOwner, type GuestCart } from "../cart-owner.server";
import { newGuestToken } from "../guest-order-token.server";
import { emailField } from "~/lib/shared/schemas";
import { GUEST_ORDER_TEXT } from "~/lib/shared/guest-orders";
import { bridgeUrlFor, RETURN_PATH, type PaymentReturn } from "../payment-return.server";
import { CHECKOUT_TEXT, isBlank, isRecord, lockConflictAsAppError } from "./refusals.server";
import { recordCheckoutOutcome } from "~/lib/server/metrics.server";
import { lineName } from "~/lib/shared/variants";
import { paymentItemsOf, providerAmountOf } from "./order-store.server";
import type { OrderMoney } from "~/lib/shared/order-money";
import { taxLinesJson } from "~/lib/shared/order-tax";
import { balancesToSpend } from "../gift-cards/checkout-payments.server";
import { planPayments, recordPlannedPayments } from "../gift-cards/order-payments.server";
import { recordOrderGiftCardLines } from "../gift-cards/order-card-lines.server";
import { GIFT_CARD_BUY_TEXT, payableByBalancesCents } from "~/lib/shared/gift-cards";
import { holdsCardsAlone } from "~/lib/shared/gift-card-view";
import { confirmedOrderEffects, reserveStock, shortageMessage, updateOrder } from "./order-store.server";
import {
  assertPricingAccepted,
  priceCart,
  withTax,
  type CartLineRow,
  type PricingChoice,
} from "./pricing.server";

/**
 * Checkout, the first stage (SPEC §2 Checkout, §4 Checkout flow; API.md
 * Orders and payment): the order is built from the shopper's cart and the
 * catalogue, never from the request, in one short transaction whose every
 * query runs on it; then, with the order committed and no transaction open,
 * the provider's order (PayPal or the simulator).
 */

export { RETURN_PATH };
export const CANCEL_PATH = "/shop/paypal-cancel";

// --- Create ---------------------------------------------------------------------------

function clientPage(target: string | undefined, orderId: string): string | undefined {
  return target ? bridgeUrlFor(target, orderId) : undefined;
}

export interface CreateOrderInput {
  /** One of the shopper's saved addresses… */
  addressId?: unknown;
  /** …or the spec's addressInfo: `{ addressId }` or the five address fields. */
  addressInfo?: unknown;
  /** What the shopper saw; a different total than the catalogue's answers 409. */
  totalAmount?: unknown;
  /** A delivery option's id (default: the cheapest active one). */
  shippingMethodId?: unknown;
  /** A discount code (default: the one on the cart; blank: none). */
  discountCode?: unknown;
  /** An external client's own return pages, checked (payment-return.server.ts). */
  paymentReturn?: PaymentReturn;
  /** A guest's email: the confirmation and the order's private link go there (guests only). */
  email?: unknown;
  /** The "Email me about my cart and offers" box (default false), kept on the order. */
  marketingConsent?: unknown;
  /** Spend the shopper's store credit first (default false; guests hold none). */
  useStoreCredit?: unknown;
}

/** Who checks out: a shopper (their account's cart), or a visitor of the open storefront (their guest cart). */
export type CheckoutBuyer = { id: string } | GuestCart;

/** The buyer as the cart and order services name an owner. */
export function ownerOfBuyer(buyer: CheckoutBuyer): CartOwner {
  return "guestCartId" in buyer ? { guestCartId: buyer.guestCartId } : buyer.id;
}

/** The "Email me about my cart and offers" box: false unless ticked, or the 400 that names the field. */
function parseMarketingConsent(input: CreateOrderInput): boolean {
  const consent = input.marketingConsent ?? false;
  if (typeof consent !== "boolean") {
    throw badRequest(GUEST_ORDER_TEXT.marketingConsent, {
      marketingConsent: [GUEST_ORDER_TEXT.marketingConsent],
    });
  }
  return consent;
}

/** A guest's email (lower-case) and consent, or the 400 that names the field. */
function parseGuestContact(input: CreateOrderInput): { email: string; marketingConsent: boolean } {
  const email = emailField.safeParse(isBlank(input.email) ? undefined : input.email);
  if (!email.success) {
    const message = isBlank(input.email) ? GUEST_ORDER_TEXT.emailRequired : email.error.issues[0]!.message;
    throw badRequest(message, { email: [message] });
  }
  return { email: email.data, marketingConsent: parseMarketingConsent(input) };
}

export interface CreatedOrder {
  orderId: string;
  /** Where the shopper approves the payment (PayPal, or the simulator's page); null when already paid. */
  approvalURL: string | null;
  /** Gift cards and store credit paid the whole total: the order is paid and confirmed, PayPal never asked. */
  paid: boolean;
  order: OrderJson;
}

const USE_STORE_CREDIT_INVALID = "useStoreCredit must be true or false";

const TOTAL_INVALID = "totalAmount must be an amount such as 109.98";

/** An amount in cents, or null when it is not a non-negative amount of whole cents. */
function amountInCents(value: number | string): number | null {
  const cents = parseCents(value);
  return cents !== null && cents >= 0 ? cents : null;
}

/**
 * The order create body's `totalAmount`: what the shopper saw, as a number or
 * a string such as "109.98"; blank means "not sent". Parsed to cents (or null).
 * The OpenAPI document publishes this same schema (web/openapi/schemas.server.ts).
 */
export const expectedTotalSchema = z
  .union([z.number(), z.string()], { error: TOTAL_INVALID })
  .nullish()
  .transform((value, context) => {
    if (isBlank(value)) return null;
    const cents = amountInCents(value as number | string);
    if (cents === null) {
      context.addIssue({ code: "custom", message: TOTAL_INVALID });
      return z.NEVER;
    }
    return cents;
  })
  .meta({
    description:
      "The total the shopper saw (a non-negative amount, at most two decimals): a different one answers 409 (prices changed)",
  });

/** The total the client expects, in cents, or null when it sent none. */
function parseExpectedTotal(value: unknown): number | null {
  const parsed = expectedTotalSchema.safeParse(value);
  if (!parsed.success) throw badRequest(TOTAL_INVALID, { totalAmount: [TOTAL_INVALID] });
  return parsed.data;
}

/** The delivery address as the order keeps it (a snapshot: later edits do not change the order). */
async function resolveAddress(
  owner: CartOwner,
  input: CreateOrderInput,
  transaction: Transaction,
): Promise<AddressSnapshot> {
  const info = isRecord(input.addressInfo) ? input.addressInfo : {};
  const addressId = isBlank(input.addressId) ? info.addressId : input.addressId;
  if (!isBlank(addressId)) {
    // A guest has no saved addresses: any id is as unknown as somebody else's.
    if (isGuestCart(owner)) throw notFound(ADDRESS_NOT_FOUND);
    // Somebody else's address answers 404, like an unknown one.
    const saved = await getAddress(owner, addressId, transaction);
    return {
      addressId: saved._id,
      address: saved.address,
      city: saved.city,
      pincode: saved.pincode,
      phone: saved.phone,
      notes: saved.notes,
      country: saved.country,
      region: saved.region,
    };
  }
  if (ADDRESS_FIELDS.every((field) => isBlank(info[field]))) {
    throw badRequest(CHECKOUT_TEXT.missingAddress, { addressId: [CHECKOUT_TEXT.missingAddress] });
  }
  return { addressId: null, ...parseAddressInput(info) };
}

/** An order of gift cards alone has nowhere to deliver to: its address is empty (and its destination none). */
const NO_ADDRESS: AddressSnapshot = {
  addressId: null,
  address: "",
  city: "",
  pincode: "",
  phone: "",
  notes: "",
};

function stockShortMessage(line: CartLineRow): string {
  const name = lineName(line);
  return line.totalStock > 0
    ? `Only ${line.totalStock} of "${name}" left in stock. Please update your cart.`
    : `"${name}" is out of stock. Please remove it from your cart.`;
}

function priceChangedMessage(totalCents: number): string {
  return `Prices in your cart have changed: the total is now ${formatPrice(centsToDecimal(totalCents))}. Please review your cart and try again.`;
}

/**
 * Whether the total a client sent is the order's. A client that does not
 * know about tax may send the total less the tax that is added to it: the
 * order is made with the tax, and the payment page shows what is charged
 * (docs/decisions/0030). A client that sent neither a delivery option nor a
 * code (the spec's, which knows only items) may also send the items' sum:
 * PayPal's approval page shows it the full total, with delivery, before
 * anything is charged (docs/decisions/0020).
 */
function expectedTotalMatches(expectedCents: number, money: OrderMoney, specClient: boolean): boolean {
  if (expectedCents === money.totalCents) return true;
  const addedTax = money.tax.pricesIncludeTax ? 0 : money.tax.taxCents;
  if (addedTax > 0 && expectedCents === money.totalCents - addedTax) return true;
  return specClient && expectedCents === money.subtotalCents;
}

function appUrl(path: string): string {
  return `${getConfig().appUrl}${path}`;
}

/**
 * Creates the order from the shopper's cart and chosen address (orderStatus
 * pending, paymentStatus pending, paymentMethod paypal), then the provider's
 * order with the same lines, and stores the provider's order id as
 * paymentId. Throws AppError: 400 empty cart, missing or invalid address,
 * invalid totalAmount; 404 somebody else's address; 409 a line above the
 * stock or a totalAmount that is not the catalogue's; 502 the provider failed
 * (the order is then removed: it was never payable).
 *
 * A guest (docs/decisions/0044-guest-checkout.md) checks out the same way from their guest cart, with an
 * email (400 without a valid one) and the address inline: the order has no user, the email lower-case, and
 * the hash of a random token as the key of its private link (mailed once the order is paid). Nothing of
 * any account is read or written, even when the email has one.
 */
export async function createOrderFromCart(
  buyer: CheckoutBuyer,
  input: CreateOrderInput,
): Promise<CreatedOrder> {
  const owner = ownerOfBuyer(buyer);
  const guest = isGuestCart(owner) ? parseGuestContact(input) : null;
  const marketingConsent = guest ? guest.marketingConsent : parseMarketingConsent(input);
  const useStoreCredit = input.useStoreCredit ?? false;
  if (typeof useStoreCredit !== "boolean") {
    throw badRequest(USE_STORE_CREDIT_INVALID, { useStoreCredit: [USE_STORE_CREDIT_INVALID] });
  }
  const expectedCents = parseExpectedTotal(input.totalAmount);
  const choice: PricingChoice = {
    shippingMethodId: input.shippingMethodId,
    discountCode: input.discountCode,
    ...(guest ? { guestEmail: guest.email } : {}),
  };
  // A client of the spec's API knows only items: it sends neither field (docs/decisions/0020).
  const specClient = input.shippingMethodId === undefined && input.discountCode === undefined;
  const { sequelize, models } = getDb();

  const prepared = await sequelize
    .transaction(async (transaction) => {
      // The cart row first (the house's lock order), then its lines: the order is
      // built from exactly what is in the cart now, priced by the one money rule.
      const untaxed = await priceCart(owner, choice, transaction);
      const cartId = untaxed.cartId;
      if (!untaxed.lines.length && !untaxed.giftCardLines.length) throw badRequest(CHECKOUT_TEXT.emptyCart);

      // Gift cards alone go by mail: no address, no delivery, no tax (docs/decisions/0051).
      const cardsOnly = holdsCardsAlone({
        clothes: untaxed.lines.length,
        cards: untaxed.giftCardLines.length,
      });
      const addressInfo = cardsOnly ? NO_ADDRESS : await resolveAddress(owner, input, transaction);
      // The destination's rates, read on this transaction: one consistent set for the whole order.
      const pricing = cardsOnly
        ? untaxed
        : await withTax(
            untaxed,
            { country: addressInfo.country!, region: addressInfo.region ?? null },
            transaction,
          );
      const { lines, money } = pricing;

      const short = lines.find((line) => line.quantity > line.totalStock);
      if (short) throw conflict(stockShortMessage(short));

      assertPricingAccepted(pricing);
      const totalCents = money.totalCents;
      if (expectedCents !== null && !expectedTotalMatches(expectedCents, money, specClient)) {
        throw conflict(priceChangedMessage(totalCents));
      }
      if (totalCents === 0) throw badRequest(CHECKOUT_TEXT.nothingToPay);

      const now = new Date();
      const method = cardsOnly ? null : pricing.shippingMethod;
      const order = await models.Order.create(
        {
          userId: isGuestCart(owner) ? null : owner,
          // The token itself goes only into the mail of the paid order (a new one, guest-order-token.server.ts).
          ...(guest
            ? {
                guestEmail: guest.email,
                guestTokenHash: newGuestToken().hash,
              }
            : {}),
          marketingConsent,
          cartId,
          addressInfo,
          orderStatus: "pending",
          paymentMethod: "paypal",
          paymentStatus: "pending",
          totalAmount: centsToDecimal(totalCents),
          subtotal: centsToDecimal(money.subtotalCents),
          shippingAmount: centsToDecimal(money.shippingCents),
          discountAmount: centsToDecimal(money.discountCents),
          shippingMethodId: method?._id ?? null,
          shippingMethodName: method?.name ?? null,
          shippingMethodPrice: method ? centsToDecimal(toCents(method.price)) : null,
          discountCode: pricing.discount?.code ?? null,
          discountCodeId: pricing.discount?.id ?? null,
          taxAmount: centsToDecimal(money.tax.taxCents),
          taxLines: taxLinesJson(money.tax),
          shippingTaxCents: money.tax.shippingTaxCents,
          pricesIncludeTax: money.tax.pricesIncludeTax,
          orderDate: now,
          orderUpdateDate: now,
          paymentId: null,
          payerId: null,
        },
        { transaction },
      );
      // A ticked box is a consent given at checkout, kept with the order's transaction; an unticked one
      // withdraws nothing the buyer agreed to before.
      if (marketingConsent) {
        await recordMarketingConsent(
          guest ? { email: guest.email, cartId } : { userId: owner as string },
          true,
          "checkout",
          transaction,
        );
      }
      await models.OrderItem.bulkCreate(
        lines.map((line, index) => ({
          orderId: order.id,
          productId: line.productId,
          variantId: line.variantId,
          sku: line.sku,
          size: line.size,
          colour: line.colour,
          title: line.title,
          image: line.image,
          price: centsToDecimal(line.unitCents),
          quantity: line.quantity,
          discountCents: money.discountShares[index]!,
          taxCents: money.tax.lineTaxCents[index]!,
        })),
        { transaction },
      );
      // Store credit first, then the cards in the order applied; PayPal for the rest (decision 0049).
      const balances = await balancesToSpend(owner, cartId, useStoreCredit, transaction);
      await recordOrderGiftCardLines(order.id, pricing.giftCardLines, transaction);
      // Gift cards cannot pay for gift cards: the balances pay the rest of the order, never the cards bought.
      const payableCents = payableByBalancesCents(money);
      if (payableCents === 0 && balances.some((balance) => balance.balanceCents > 0)) {
        throw badRequest(GIFT_CARD_BUY_TEXT.cardsForCards);
      }
      const { payments } = planPayments(payableCents, balances);
      await recordPlannedPayments(order.id, payments, transaction);
      const paidByBalancesCents = payments.reduce((sum, payment) => sum + payment.cents, 0);
      const giftCardCents = pricing.giftCardLines.map((line) => line.cents);
      const made = { orderId: order.id, lines, giftCardCents, money, paidByBalancesCents };
      if (paidByBalancesCents === totalCents) {
        await payWithBalancesAlone(order.id, cartId, transaction);
        return { ...made, paid: true };
      }
      return { ...made, paid: false };
    })
    .catch(lockConflictAsAppError);
  if (prepared.paid) {
    recordCheckoutOutcome("captured");
    return {
      orderId: prepared.orderId,
      approvalURL: null,
      paid: true,
      order: await getOrderForUser(owner, prepared.orderId),
    };
  }

  // The order row is committed before the shopper is sent to approve: the
  // simulator's approval page (and the return page) look it up.
  let payment;
  try {
    payment = await getPaymentGateway().createOrder({
      orderId: prepared.orderId,
      ...providerAmountOf(
        prepared.orderId,
        paymentItemsOf(prepared.lines, prepared.money, prepared.giftCardCents),
        prepared.money,
        prepared.paidByBalancesCents,
      ),
      currency: "USD",
      // The provider comes back to the bridge, whose link is signed for this order only.
      returnUrl: clientPage(input.paymentReturn?.returnUrl, prepared.orderId) ?? appUrl(RETURN_PATH),
      cancelUrl: clientPage(input.paymentReturn?.cancelUrl, prepared.orderId) ?? appUrl(CANCEL_PATH),
      requestId: `create-${prepared.orderId}`,
    });
  } catch (error) {
    // No payment can ever reach this order: leave nothing behind in the history.
    await models.Order.destroy({ where: { id: prepared.orderId } });
    throw error;
  }
  await models.Order.update(
    { paymentId: payment.providerOrderId },
    // An order the reconciler closed meanwhile (past its grace period) stays closed.
    { where: { id: prepared.orderId, orderStatus: "pending" } },
  );
  recordCheckoutOutcome("created");
  return {
    orderId: prepared.orderId,
    approvalURL: payment.approvalUrl,
    paid: false,
    order: await getOrderForUser(owner, prepared.orderId),
  };
}

/**
 * Inside the order's transaction: the cards and credit pay the whole total, so the order is paid now, as a
 * capture would confirm it: its stock, code use and balances taken under their locks (a balance spent
 * meanwhile: 409 "The gift card's balance has changed", nothing kept), confirmed, its lines and cards out of
 * the cart, the confirmation mail in the outbox.
 */
async function payWithBalancesAlone(orderId: string, cartId: string | null, transaction: Transaction) {
  const shortage = await reserveStock(orderId, transaction);
  if (shortage) throw conflict(shortageMessage(shortage, false));
  await updateOrder(
    orderId,
    `payment_status = 'paid', order_status = 'confirmed', payment_method = 'giftCard', captured_at = now()`,
    {},
    transaction,
  );
  if (cartId) {
    const { sequelize } = getDb();
    await sequelize.query(
      `DELETE FROM cart_items WHERE cart_id = :cartId
          AND variant_id IN (SELECT variant_id FROM order_items WHERE order_id = :orderId AND variant_id IS NOT NULL)`,
      { replacements: { cartId, orderId }, transaction },
    );
    await sequelize.query(`DELETE FROM cart_gift_cards WHERE cart_id = :cartId`, {
      replacements: { cartId },
      transaction,
    });
  }
  await confirmedOrderEffects(orderId, transaction);
}
