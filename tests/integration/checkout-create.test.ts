import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { PaymentProviderUnavailableError } from "../../app/payments/errors.server";
import type { PaymentGateway } from "../../app/payments/gateway.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { createSimulatorGateway, getSimulatedPayment } from "../../app/payments/simulator.server";
import { CHECKOUT_TEXT, createOrderFromCart, getCheckoutSummary } from "../../app/services/checkout.server";
import { resetDatabase } from "../support/database";
import {
  cartOf,
  createProduct,
  createShopper,
  HOME,
  orderRow,
  putInCart,
  saveAddress,
  stockOf,
  type TestShopper,
} from "./checkout-support";

/**
 * Creating an order from the cart (SPEC §4 Checkout flow 1, §5 Checkout; API.md
 * Orders and payment: create). The payment simulator is the gateway here; the
 * PayPal adapter's path is in checkout-paypal.test.ts.
 */

let shopper: TestShopper;

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  shopper = await createShopper();
});

async function orderCount(): Promise<number> {
  return getDb().models.Order.count();
}

async function variantsOf(productId: string) {
  return getDb().models.ProductVariant.findAll({
    where: { productId },
    attributes: ["id", "sku"],
    raw: true,
  });
}

describe("create: the order is built from the cart and the catalogue", () => {
  it("snapshots the lines at the price paid (sale price when above 0), the address, the statuses and the cart id", async () => {
    const jacket = await createProduct({ title: "Denim Jacket", price: "80.00", salePrice: "59.99" });
    const socks = await createProduct({ title: "Socks", price: "5.50", salePrice: "0" });
    const cartId = await putInCart(shopper.id, jacket.id, 2);
    await putInCart(shopper.id, socks.id, 3);
    const address = await saveAddress(shopper.id);

    const created = await createOrderFromCart(shopper, { addressId: address._id });

    expect(created.approvalURL).toBe(`${getConfig().appUrl}/payment-simulator/${created.order.paymentId}`);
    expect(created.order).toMatchObject({
      _id: created.orderId,
      userId: shopper.id,
      cartId,
      orderStatus: "pending",
      paymentStatus: "pending",
      paymentMethod: "paypal",
      totalAmount: 136.48,
      paymentId: expect.stringMatching(/^SIM/),
      payerId: null,
      addressInfo: { addressId: address._id, ...HOME, country: "US", region: null },
    });
    // Each line is the product's one variant, its SKU kept as it was when the order was made.
    const [jacketVariant] = await variantsOf(jacket.id);
    const [socksVariant] = await variantsOf(socks.id);
    const variantFields = (variant: { id: string; sku: string }) => ({
      variantId: variant.id,
      sku: variant.sku,
      size: null,
      colour: null,
    });
    expect(created.order.cartItems).toEqual(
      expect.arrayContaining([
        {
          productId: jacket.id,
          title: "Denim Jacket",
          image: jacket.image,
          price: 59.99,
          quantity: 2,
          discountAmount: 0,
          taxAmount: 0,
          returnedQuantity: 0,
          exchangedQuantity: 0,
          ...variantFields(jacketVariant!),
        },
        {
          productId: socks.id,
          title: "Socks",
          image: socks.image,
          price: 5.5,
          quantity: 3,
          discountAmount: 0,
          taxAmount: 0,
          returnedQuantity: 0,
          exchangedQuantity: 0,
          ...variantFields(socksVariant!),
        },
      ]),
    );
    expect(created.order.cartItems).toHaveLength(2);
    // Creating changes neither the stock nor the cart: that happens when the payment is captured.
    expect(await stockOf(jacket.id)).toBe(10);
    expect(await cartOf(shopper.id)).toEqual({ [jacket.id]: 2, [socks.id]: 3 });
  });

  it("creates the provider's order with the same lines and total, for this order", async () => {
    const jacket = await createProduct({ title: "Denim Jacket", price: "80.00", salePrice: "59.99" });
    await putInCart(shopper.id, jacket.id, 2);
    const address = await saveAddress(shopper.id);
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    expect(await getSimulatedPayment(created.order.paymentId!)).toEqual({
      providerOrderId: created.order.paymentId,
      orderId: created.orderId,
      items: [
        {
          name: "Denim Jacket",
          unitAmountCents: 5999,
          quantity: 2,
          sku: (await variantsOf(jacket.id))[0]!.sku,
        },
      ],
      itemTotalCents: 11998,
      taxTotalCents: 0,
      shippingCents: 0,
      discountCents: 0,
      amountCents: 11998,
      currency: "USD",
      status: "CREATED",
    });
  });

  it("sends return and cancel URLs built from APP_URL", async () => {
    const product = await createProduct();
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    const [rows] = (await getDb().sequelize.query(
      "SELECT return_url, cancel_url FROM payment_simulator_orders WHERE id = :id",
      { replacements: { id: created.order.paymentId } },
    )) as [{ return_url: string; cancel_url: string }[], unknown];
    expect(rows[0]).toEqual({
      return_url: `${getConfig().appUrl}/shop/paypal-return`,
      cancel_url: `${getConfig().appUrl}/shop/paypal-cancel`,
    });
  });

  it("accepts the five address fields instead of a saved address, trimmed, with addressId null", async () => {
    const product = await createProduct();
    await putInCart(shopper.id, product.id, 1);
    const created = await createOrderFromCart(shopper, {
      addressInfo: { ...HOME, address: `  ${HOME.address} ` },
    });
    expect(created.order.addressInfo).toEqual({ addressId: null, ...HOME, country: "US", region: null });
  });

  it("keeps the address as it was when the order was made, whatever happens to the saved one", async () => {
    const product = await createProduct();
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    const created = await createOrderFromCart(shopper, { addressInfo: { addressId: address._id } });
    await getDb().models.Address.destroy({ where: { id: address._id } });
    expect((await orderRow(created.orderId)).addressInfo).toEqual({
      addressId: address._id,
      ...HOME,
      country: "US",
      region: null,
    });
  });
});

describe("create: refusals", () => {
  it("refuses an empty cart, and a shopper without a cart, with 400 'Your cart is empty. Please add items to proceed'", async () => {
    const address = await saveAddress(shopper.id);
    await expect(createOrderFromCart(shopper, { addressId: address._id })).rejects.toMatchObject({
      status: 400,
      message: CHECKOUT_TEXT.emptyCart,
    });
    const product = await createProduct();
    await putInCart(shopper.id, product.id, 1);
    await getDb().sequelize.query("DELETE FROM cart_items");
    await expect(createOrderFromCart(shopper, { addressId: address._id })).rejects.toMatchObject({
      status: 400,
      message: "Your cart is empty. Please add items to proceed",
    });
    expect(await orderCount()).toBe(0);
  });

  it.each([
    ["no address at all", {}],
    ["an empty addressInfo", { addressInfo: {} }],
    ["blank fields and no id", { addressInfo: { addressId: "", address: " ", city: "" } }],
    ["a null addressId", { addressId: null }],
  ])("refuses %s with 400 'Please select one address to proceed.'", async (_name, input) => {
    const product = await createProduct();
    await putInCart(shopper.id, product.id, 1);
    await expect(createOrderFromCart(shopper, input)).rejects.toMatchObject({
      status: 400,
      message: "Please select one address to proceed.",
    });
    expect(await orderCount()).toBe(0);
  });

  it("refuses address fields with one missing, naming the field", async () => {
    const product = await createProduct();
    await putInCart(shopper.id, product.id, 1);
    await expect(
      createOrderFromCart(shopper, { addressInfo: { ...HOME, phone: "  " } }),
    ).rejects.toMatchObject({ status: 400, fieldErrors: { phone: ["Phone is required"] } });
  });

  it("answers another shopper's address, an unknown and a malformed address id with 404", async () => {
    const product = await createProduct();
    await putInCart(shopper.id, product.id, 1);
    const stranger = await createShopper("Stranger");
    const theirs = await saveAddress(stranger.id);
    for (const addressId of [theirs._id, "00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      await expect(createOrderFromCart(shopper, { addressId })).rejects.toMatchObject({ status: 404 });
    }
    expect(await orderCount()).toBe(0);
  });

  it("refuses with 409 a total that differs from the catalogue's, naming the new total, and accepts the right one", async () => {
    const product = await createProduct({ price: "20.00" });
    await putInCart(shopper.id, product.id, 2);
    const address = await saveAddress(shopper.id);
    await expect(
      createOrderFromCart(shopper, { addressId: address._id, totalAmount: 39.99 }),
    ).rejects.toMatchObject({
      status: 409,
      message:
        "Prices in your cart have changed: the total is now $40.00. Please review your cart and try again.",
    });
    expect(await orderCount()).toBe(0);
    await expect(
      createOrderFromCart(shopper, { addressId: address._id, totalAmount: 40 }),
    ).resolves.toMatchObject({ order: { totalAmount: 40 } });
    await expect(
      createOrderFromCart(shopper, { addressId: address._id, totalAmount: "40.00" }),
    ).resolves.toBeTruthy();
  });

  it("refuses a price changed between cart and order (409), and charges the catalogue's price without a total", async () => {
    const product = await createProduct({ price: "20.00" });
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    const seen = await getCheckoutSummary(shopper.id);
    expect(seen.totalAmount).toBe(20);

    // The admin puts the product on sale after the shopper saw the cart.
    await getDb().models.Product.update({ salePrice: "15.00" }, { where: { id: product.id } });
    await expect(
      createOrderFromCart(shopper, { addressId: address._id, totalAmount: seen.totalAmount }),
    ).rejects.toMatchObject({ status: 409, message: expect.stringContaining("the total is now $15.00") });

    const created = await createOrderFromCart(shopper, { addressId: address._id });
    expect(created.order.totalAmount).toBe(15);
    expect(created.order.cartItems[0]!.price).toBe(15);
  });

  it.each([["abc"], [-1.5], ["-50.00"], [12.345], ["12.345"], [{}], [true], [Number.NaN]])(
    "refuses totalAmount %j with 400",
    async (totalAmount) => {
      const product = await createProduct();
      await putInCart(shopper.id, product.id, 1);
      const address = await saveAddress(shopper.id);
      await expect(
        createOrderFromCart(shopper, { addressId: address._id, totalAmount }),
      ).rejects.toMatchObject({
        status: 400,
        fieldErrors: { totalAmount: ["totalAmount must be an amount such as 109.98"] },
      });
    },
  );

  it("accepts a total with floating-point noise from a client's sum (0.1 + 0.2)", async () => {
    const product = await createProduct({ price: "0.10" });
    const other = await createProduct({ price: "0.20" });
    await putInCart(shopper.id, product.id, 1);
    await putInCart(shopper.id, other.id, 1);
    const address = await saveAddress(shopper.id);
    const created = await createOrderFromCart(shopper, { addressId: address._id, totalAmount: 0.1 + 0.2 });
    expect(created.order.totalAmount).toBe(0.3);
  });

  it("refuses a line above the stock with 409, and an item that sold out", async () => {
    const product = await createProduct({ title: "Cap", totalStock: 5 });
    await putInCart(shopper.id, product.id, 5);
    const address = await saveAddress(shopper.id);
    await getDb().models.Product.update({ totalStock: 3 }, { where: { id: product.id } });
    await expect(createOrderFromCart(shopper, { addressId: address._id })).rejects.toMatchObject({
      status: 409,
      message: 'Only 3 of "Cap" left in stock. Please update your cart.',
    });
    await getDb().models.Product.update({ totalStock: 0 }, { where: { id: product.id } });
    await expect(createOrderFromCart(shopper, { addressId: address._id })).rejects.toMatchObject({
      status: 409,
      message: '"Cap" is out of stock. Please remove it from your cart.',
    });
    expect(await orderCount()).toBe(0);
  });

  it("leaves no order behind when the payment provider fails (502)", async () => {
    const simulator = createSimulatorGateway();
    const failing: PaymentGateway = {
      ...simulator,
      createOrder: () => Promise.reject(new PaymentProviderUnavailableError()),
    };
    setPaymentGateway(failing);
    try {
      const product = await createProduct();
      await putInCart(shopper.id, product.id, 1);
      const address = await saveAddress(shopper.id);
      await expect(createOrderFromCart(shopper, { addressId: address._id })).rejects.toMatchObject({
        status: 502,
      });
      expect(await orderCount()).toBe(0);
      expect(await getDb().models.OrderItem.count()).toBe(0);
      expect(await cartOf(shopper.id)).toEqual({ [product.id]: 1 });
    } finally {
      setPaymentGateway(undefined);
    }
  });
});
