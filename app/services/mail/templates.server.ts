import { centsToDecimal, formatPrice, toCents } from "~/lib/shared/money";
import { variantLabel } from "~/lib/shared/variants";
import { shippingLabel } from "~/lib/shared/order-money";
import { RETURN_REASON_LABELS, type ReturnReason, type ReturnType } from "~/lib/shared/returns";
import type { AddressSnapshot } from "~/models/index.server";

/**
 * The shop's mails, rendered on the server as plain text and simple HTML.
 * Every value that a user or an admin typed (names, product titles, the
 * address) goes through `escapeHtml` in the HTML part; amounts are formatted
 * in the shop's one currency by `formatPrice`.
 */

export const SHOP_NAME = "ECommerce Shopping";

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

/** The skeleton every HTML mail shares: readable without images or styles from elsewhere. */
export function htmlDocument(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family: Arial, Helvetica, sans-serif; color: #111; line-height: 1.5; max-width: 40rem; margin: 0 auto; padding: 1rem;">
<p style="font-weight: bold; font-size: 1.1rem;">${SHOP_NAME}</p>
${body}
<p style="color: #555; font-size: 0.85rem;">This message was sent by ${SHOP_NAME}.</p>
</body>
</html>
`;
}

export function button(href: string, label: string): string {
  return `<p><a href="${escapeHtml(href)}" style="display: inline-block; background: #111; color: #fff; padding: 0.6rem 1rem; border-radius: 6px; text-decoration: none;">${escapeHtml(label)}</a></p>`;
}

// --- Password reset ---------------------------------------------------------------

/*
 * The security mails carry no text that the person who caused them chose: a
 * reset can be asked for any address, and an account's name is whatever its
 * registrant typed (the address is never confirmed), so a stranger's name
 * would reach the mailbox's owner in the shop's own voice. They greet nobody
 * by name and print only the shop's words and links.
 */

export function passwordResetMail(input: { link: string; validMinutes: number }): RenderedMail {
  const subject = `Reset your ${SHOP_NAME} password`;
  const text = [
    "Hello,",
    "",
    `Somebody (hopefully you) asked to reset the password of your ${SHOP_NAME} account.`,
    `Open this link within ${input.validMinutes} minutes to choose a new password:`,
    "",
    input.link,
    "",
    "The link works once. If you did not ask for it, ignore this message: your password stays as it is.",
  ].join("\n");
  const html = htmlDocument(
    subject,
    `<p>Hello,</p>
<p>Somebody (hopefully you) asked to reset the password of your ${SHOP_NAME} account.
Open this link within ${input.validMinutes} minutes to choose a new password:</p>
${button(input.link, "Choose a new password")}
<p>Or copy this address into your browser: ${escapeHtml(input.link)}</p>
<p>The link works once. If you did not ask for it, ignore this message: your password stays as it is.</p>`,
  );
  return { subject, text, html };
}

/** The notice after any password change: the owner learns of a change they did not make. */
export function passwordChangedMail(input: { forgotLink: string }): RenderedMail {
  const subject = `Your ${SHOP_NAME} password was changed`;
  const text = [
    "Hello,",
    "",
    `The password of your ${SHOP_NAME} account was just changed, and every other session was signed out.`,
    "If that was you, there is nothing to do.",
    `If it was not, choose a new password at once: ${input.forgotLink}`,
  ].join("\n");
  const html = htmlDocument(
    subject,
    `<p>Hello,</p>
<p>The password of your ${SHOP_NAME} account was just changed, and every other session was signed out.</p>
<p>If that was you, there is nothing to do. If it was not, choose a new password at once:</p>
${button(input.forgotLink, "Choose a new password")}`,
  );
  return { subject, text, html };
}

/** "Hello Sam," or, to a guest who gave no name, "Hello,". */
function greetingText(name: string | null): string {
  return name ? `Hello ${name},` : "Hello,";
}

function greetingHtml(name: string | null): string {
  return `<p>${escapeHtml(greetingText(name))}</p>`;
}

// --- Orders -----------------------------------------------------------------------

export interface OrderMailData {
  orderId: string;
  /** The shopper's name; null for a guest, who gave none. */
  userName: string | null;
  items: OrderMailItem[];
  totalAmount: string;
  /** The parts of the total; absent: the total is the items' sum. */
  money?: OrderMailMoney;
  address: AddressSnapshot;
  orderLink: string;
  /** The parcel's tracking, where the admin set it; the "on its way" mail shows it. */
  tracking?: { number: string | null; carrier: string | null; url: string | null } | null;
}

/** What the order's total is made of, as the order stores it (lib/shared/order-money.ts computed it). */
interface OrderMailMoney {
  subtotal: string;
  shippingAmount: string;
  discountAmount: string;
  shippingMethodName: string | null;
  discountCode: string | null;
  /** The tax as charged ("0.00": none); inside the prices when pricesIncludeTax. */
  taxAmount?: string;
  pricesIncludeTax?: boolean;
}

/** The rows between the items and the total: subtotal, discount, delivery, tax (only those the order has). */
function moneyRows(money: OrderMailMoney | undefined): [string, string][] {
  if (!money) return [];
  const rows: [string, string][] = [["Subtotal", formatPrice(money.subtotal)]];
  if (toCents(money.discountAmount) > 0) {
    rows.push([
      `Discount${money.discountCode ? ` (${money.discountCode})` : ""}`,
      `−${formatPrice(money.discountAmount)}`,
    ]);
  }
  if (money.shippingMethodName !== null) {
    rows.push([`Delivery (${money.shippingMethodName})`, shippingLabel(toCents(money.shippingAmount))]);
  }
  if (money.taxAmount && toCents(money.taxAmount) > 0) {
    rows.push([money.pricesIncludeTax ? "Includes tax" : "Tax", formatPrice(money.taxAmount)]);
  }
  return rows;
}

/** An order line as the order keeps it: the size, colour and SKU as they were when it was bought. */
export interface OrderMailItem {
  title: string;
  price: string;
  quantity: number;
  sku: string | null;
  size: string | null;
  colour: string | null;
}

/** "M · Black · SKU TEE-M-BLACK": what tells two lines of one product apart, and what a shop assistant looks up. */
function lineDetails(item: Pick<OrderMailItem, "size" | "colour" | "sku">): string {
  return [variantLabel(item), item.sku && `SKU ${item.sku}`].filter(Boolean).join(" · ");
}

function lineTotal(price: string, quantity: number): string {
  return formatPrice(centsToDecimal(toCents(price) * quantity));
}

/** An order of gift cards alone goes by mail: it has no address to show. */
function goesToAnAddress(order: OrderMailData): boolean {
  return order.address.address !== "";
}

function addressLines(address: AddressSnapshot): string[] {
  return [address.address, `${address.city} ${address.pincode}`, `Phone: ${address.phone}`].concat(
    address.notes ? [`Notes: ${address.notes}`] : [],
  );
}

function orderText(order: OrderMailData): string[] {
  return [
    `Order number: ${order.orderId}`,
    "",
    ...order.items.map(
      (item) =>
        `- ${item.title}${lineDetails(item) ? ` (${lineDetails(item)})` : ""}: ${item.quantity} x ${formatPrice(item.price)} = ${lineTotal(item.price, item.quantity)}`,
    ),
    "",
    ...moneyRows(order.money).map(([label, value]) => `${label}: ${value}`),
    `Total: ${formatPrice(order.totalAmount)}`,
    "",
    ...(goesToAnAddress(order) ? ["Delivery address:", ...addressLines(order.address), ""] : []),
    `Your order: ${order.orderLink}`,
  ];
}

function orderHtml(order: OrderMailData): string {
  const cell = 'style="padding: 0.3rem 0.5rem; border-bottom: 1px solid #ddd; text-align: left;"';
  const number = 'style="padding: 0.3rem 0.5rem; border-bottom: 1px solid #ddd; text-align: right;"';
  const rows = order.items
    .map(
      (item) =>
        `<tr><td ${cell}>${escapeHtml(item.title)}${lineDetails(item) ? `<br><span style="color: #555; font-size: 0.9em;">${escapeHtml(lineDetails(item))}</span>` : ""}</td><td ${number}>${item.quantity}</td><td ${number}>${escapeHtml(formatPrice(item.price))}</td><td ${number}>${escapeHtml(lineTotal(item.price, item.quantity))}</td></tr>`,
    )
    .join("\n");
  return `<p>Order number: <strong>${escapeHtml(order.orderId)}</strong></p>
<table style="border-collapse: collapse; width: 100%;">
<thead><tr><th ${cell}>Item</th><th ${number}>Quantity</th><th ${number}>Price</th><th ${number}>Subtotal</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot>${moneyRows(order.money)
    .map(
      ([label, value]) =>
        `<tr><td ${cell} colspan="3">${escapeHtml(label)}</td><td ${number}>${escapeHtml(value)}</td></tr>`,
    )
    .join(
      "",
    )}<tr><th ${cell} colspan="3">Total</th><th ${number}>${escapeHtml(formatPrice(order.totalAmount))}</th></tr></tfoot>
</table>
${goesToAnAddress(order) ? `<p><strong>Delivery address</strong><br>${addressLines(order.address).map(escapeHtml).join("<br>")}</p>` : ""}
${button(order.orderLink, "View your order")}`;
}

/** "Carrier: DHL", "Tracking number: …" and the carrier's page, for the mails that tell of the parcel. */
function trackingLines(order: Pick<OrderMailData, "tracking">): string[] {
  const tracking = order.tracking;
  if (!tracking) return [];
  return [
    ...(tracking.carrier ? [`Carrier: ${tracking.carrier}`] : []),
    ...(tracking.number ? [`Tracking number: ${tracking.number}`] : []),
    ...(tracking.url ? [`Track your parcel: ${tracking.url}`] : []),
  ];
}

function trackingHtml(order: Pick<OrderMailData, "tracking">): string {
  const tracking = order.tracking;
  if (!tracking) return "";
  const lines = [
    ...(tracking.carrier ? [`Carrier: ${escapeHtml(tracking.carrier)}`] : []),
    ...(tracking.number ? [`Tracking number: <strong>${escapeHtml(tracking.number)}</strong>`] : []),
  ];
  return `<p>${lines.join("<br>")}</p>\n${tracking.url ? button(tracking.url, "Track your parcel") : ""}`;
}

function orderMail(
  order: OrderMailData,
  subject: string,
  introduction: string[],
  options: { tracking?: boolean } = {},
): RenderedMail {
  const tracking = options.tracking ? trackingLines(order) : [];
  const text = [
    greetingText(order.userName),
    "",
    ...introduction,
    ...(tracking.length ? ["", ...tracking] : []),
    "",
    ...orderText(order),
  ].join("\n");
  const html = htmlDocument(
    subject,
    `${greetingHtml(order.userName)}
${introduction.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}
${options.tracking && order.tracking ? `${trackingHtml(order)}\n` : ""}${orderHtml(order)}`,
  );
  return { subject, text, html };
}

export type OrderMailEvent = "confirmed" | "inShipping" | "tracking" | "delivered" | "rejected" | "refunded";

export function orderMailFor(event: OrderMailEvent, order: OrderMailData): RenderedMail {
  switch (event) {
    case "confirmed":
      return orderMail(order, `Your order is confirmed`, [
        "Thank you for your order! Your payment was received and your order is confirmed.",
      ]);
    case "inShipping":
      return orderMail(
        order,
        `Your order is on its way`,
        ["Good news: your order has been handed over for delivery."],
        { tracking: true },
      );
    case "tracking":
      return orderMail(
        order,
        `Track your parcel`,
        ["Your order is on its way: here is its tracking number."],
        { tracking: true },
      );
    case "delivered":
      return orderMail(order, `Your order was delivered`, [
        "Your order was delivered. We hope you enjoy it!",
      ]);
    case "rejected":
      return orderMail(order, `Your order was cancelled`, [
        "We are sorry: we could not fulfil your order, so it was cancelled.",
        "If you were charged, the payment will be refunded.",
      ]);
    case "refunded":
      return orderMail(order, `Your payment was refunded`, [
        "Your order could not be completed, so your payment was refunded in full.",
      ]);
  }
}

// --- Returns ----------------------------------------------------------------------

/** A refund mails requested, approved, rejected, refunded; an exchange requested, approved, rejected, received, shipped. */
export type ReturnMailEvent = "requested" | "approved" | "rejected" | "refunded" | "received" | "shipped";

/** A returned line: what, how many, why; what it refunds once received, or the size sent in its place. */
interface ReturnMailItem extends Omit<OrderMailItem, "price"> {
  reason: ReturnReason;
  refundCents: number | null;
  newSize?: string | null;
  newColour?: string | null;
}

export interface ReturnMailData {
  type: ReturnType;
  /** An exchange's replacement parcel, once shipped. */
  tracking: OrderMailData["tracking"];
  returnId: string;
  orderId: string;
  /** The shopper's name; null for a guest, who gave none. */
  userName: string | null;
  items: ReturnMailItem[];
  /** Set once received: the lines' refunds and the delivery's, when refunded with them. */
  refundCents: number | null;
  shippingRefundCents: number;
  orderLink: string;
}

const RETURN_MAIL_TEXT: Partial<Record<ReturnMailEvent, { subject: string; introduction: string[] }>> = {
  requested: {
    subject: "We got your return request",
    introduction: [
      "Thank you: we got your request to return the items below.",
      "We will check it and tell you by email how to send them back.",
    ],
  },
  approved: {
    subject: "Your return is approved: send the items back",
    introduction: [
      "Your return is approved. Please pack the items below with a note of your order number and send them back to us.",
      "We refund them as soon as the parcel arrives.",
    ],
  },
  rejected: {
    subject: "Your return request was declined",
    introduction: [
      "We are sorry: we cannot accept the return of the items below. Reply to this message if you have questions.",
    ],
  },
  refunded: {
    subject: "Your return arrived: refund sent",
    introduction: ["Your returned items arrived, and we refunded them to your original payment method."],
  },
};

/** An exchange never mentions money: the replacement takes the returned unit's place at the price paid. */
const EXCHANGE_MAIL_TEXT: Partial<Record<ReturnMailEvent, { subject: string; introduction: string[] }>> = {
  requested: {
    subject: "We got your exchange request: your new size is held",
    introduction: [
      "Thank you: we got your request to exchange the items below, and the new sizes are set aside for you.",
      "We will check it and tell you by email how to send the old ones back. Nothing is charged or refunded.",
    ],
  },
  approved: {
    subject: "Your exchange is approved: send the items back",
    introduction: [
      "Your exchange is approved. Please pack the items below with a note of your order number and send them back to us.",
      "We send the new sizes as soon as the parcel arrives.",
    ],
  },
  rejected: {
    subject: "Your exchange request was declined",
    introduction: [
      "We are sorry: we cannot exchange the items below, and the sizes held for you were released. Reply to this message if you have questions.",
    ],
  },
  received: {
    subject: "Your exchange arrived: the new size ships soon",
    introduction: ["The items you sent back arrived. We are packing the new sizes below for you."],
  },
  shipped: {
    subject: "Your new size is on its way",
    introduction: ["Your exchange is on its way: here is its tracking number."],
  },
};

function returnLine(item: ReturnMailItem): string {
  const details = lineDetails(item);
  const refund = item.refundCents === null ? "" : `, refund ${formatPrice(centsToDecimal(item.refundCents))}`;
  const instead =
    item.newSize !== undefined || item.newColour !== undefined
      ? ` → ${variantLabel({ size: item.newSize ?? null, colour: item.newColour ?? null })}`
      : refund;
  return `${item.quantity} x ${item.title}${details ? ` (${details})` : ""}: ${RETURN_REASON_LABELS[item.reason]}${instead}`;
}

export function returnMailFor(event: ReturnMailEvent, data: ReturnMailData): RenderedMail {
  const texts = data.type === "exchange" ? EXCHANGE_MAIL_TEXT : RETURN_MAIL_TEXT;
  const wording = texts[event];
  if (!wording) throw new Error(`A ${data.type} return has no "${event}" mail`);
  const { subject, introduction } = wording;
  const lines = data.items.map(returnLine);
  const refundRows: string[] = [];
  if (event === "refunded" && data.refundCents !== null) {
    if (data.shippingRefundCents > 0)
      refundRows.push(`Delivery refunded: ${formatPrice(centsToDecimal(data.shippingRefundCents))}`);
    refundRows.push(
      `Refunded in total: ${formatPrice(centsToDecimal(data.refundCents + data.shippingRefundCents))}`,
    );
  }
  const text = [
    greetingText(data.userName),
    "",
    ...introduction,
    "",
    `Order number: ${data.orderId}`,
    ...lines.map((line) => `- ${line}`),
    ...(refundRows.length ? ["", ...refundRows] : []),
    ...(event === "shipped" ? ["", ...trackingLines(data)] : []),
    "",
    `Your order: ${data.orderLink}`,
  ].join("\n");
  const html = htmlDocument(
    subject,
    `${greetingHtml(data.userName)}
${introduction.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}
<p>Order number: <strong>${escapeHtml(data.orderId)}</strong></p>
<ul>
${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("\n")}
</ul>
${refundRows.map((row) => `<p><strong>${escapeHtml(row)}</strong></p>`).join("\n")}
${event === "shipped" ? trackingHtml(data) : ""}
${button(data.orderLink, "View your order")}`,
  );
  return { subject, text, html };
}
