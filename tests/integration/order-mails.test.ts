import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { createSimulatorGateway } from "../../app/payments/simulator.server";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { escapeHtml } from "../../app/services/mail/templates.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { resetDatabase } from "../support/database";
import { createOrderRow } from "./admin-support";
import {
  approvedOrder,
  createProduct,
  createProductWithVariants,
  createShopper,
  payerAnswers,
  putInCart,
  saveAddress,
  type TestShopper,
} from "./checkout-support";

/**
 * The order mails: written into the outbox by the transactions
 * that confirm an order and change its status, in plain text and simple HTML
 * with every typed value escaped and amounts in dollars.
 */

interface OutboxRow {
  kind: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
}

async function outbox(): Promise<OutboxRow[]> {
  return getDb().sequelize.query<OutboxRow>(
    `SELECT kind, recipient, subject, text_body AS text, html_body AS html FROM mail_outbox ORDER BY created_at, id`,
    { type: QueryTypes.SELECT },
  );
}

let shopper: TestShopper & { email: string };

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  const created = await createShopper("Sam <b>Bold</b> Shopper");
  const user = await getDb().models.User.findByPk(created.id, { raw: true });
  shopper = { ...created, email: user!.email };
});

async function paidOrder() {
  const jacket = await createProduct({ title: `Jacket <script>alert("x")</script> & co`, price: "30.00" });
  const socks = await createProduct({ title: "Socks", price: "5.50" });
  await putInCart(shopper.id, socks.id, 3);
  const order = await approvedOrder(shopper, jacket.id, 2);
  await captureOrderPayment(shopper, { paymentId: order.paymentId, payerId: order.payerId });
  return order;
}

describe("order confirmed", () => {
  it("is enqueued by the capture: order number, items, quantities, prices, total, address, link, in dollars", async () => {
    const order = await paidOrder();
    const [mail, ...others] = await outbox();
    expect(others).toEqual([]);
    expect(mail).toMatchObject({
      kind: "order-confirmed",
      recipient: shopper.email,
      subject: "Your order is confirmed",
    });
    const link = `http://localhost:3000/shop/account/orders/${order.orderId}`;
    for (const part of [mail!.text, mail!.html]) {
      expect(part).toContain(order.orderId);
      expect(part).toContain("$30.00");
      expect(part).toContain("$60.00");
      expect(part).toContain("$5.50");
      expect(part).toContain("$16.50");
      expect(part).toContain("$76.50");
      expect(part).toContain(link);
      expect(part).toContain("London");
      expect(part).toContain("NW1 6XE");
    }
    // A product with one variant has no size or colour to show, but its line still names the SKU.
    const sku = async (title: string) =>
      (
        await getDb().sequelize.query<{ sku: string }>(
          `SELECT v.sku FROM product_variants v JOIN products p ON p.id = v.product_id WHERE p.title = :title`,
          { replacements: { title }, type: QueryTypes.SELECT },
        )
      )[0]!.sku;
    expect(mail!.text).toContain(
      `- Jacket <script>alert("x")</script> & co (SKU ${await sku(`Jacket <script>alert("x")</script> & co`)}): 2 x $30.00 = $60.00`,
    );
    expect(mail!.text).toContain(`- Socks (SKU ${await sku("Socks")}): 3 x $5.50 = $16.50`);
    expect(mail!.text).toContain("Total: $76.50");
  });

  it("names each line's size, colour and SKU as the order kept them, in both parts", async () => {
    const tee = await createProductWithVariants(
      [
        { size: "S", colour: "black", totalStock: 4 },
        { size: "M", colour: "black", totalStock: 4 },
        { size: "L", colour: "white", totalStock: 4 },
      ],
      { title: "Sized Tee", price: "20.00" },
    );
    const shoe = await createProductWithVariants([{ size: "EU 42", totalStock: 2 }], {
      title: "Trainer",
      price: "80.00",
      category: "footwear",
    });
    const m = tee.bySize.M!;
    const l = tee.bySize.L!;
    await putInCart(shopper.id, tee.product.id, 2, m.id);
    await putInCart(shopper.id, tee.product.id, 1, l.id);
    await putInCart(shopper.id, shoe.product.id, 1, shoe.variants[0]!.id);
    const address = await saveAddress(shopper.id);
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    const answer = await payerAnswers(created.order.paymentId!, "approve");
    await captureOrderPayment(shopper, { paymentId: answer.token });
    // A later rename of the variant's SKU changes no order, nor its mails.
    await getDb().models.ProductVariant.update({ sku: "RENAMED-1" }, { where: { id: m.id } });
    await updateOrderStatus(created.order._id, { orderStatus: "inShipping" });
    const mails = await outbox();
    expect(mails.map((mail) => mail.kind)).toEqual(["order-confirmed", "order-in-shipping"]);
    for (const mail of mails) {
      expect(mail.text).toContain(`- Sized Tee (M · Black · SKU ${m.sku}): 2 x $20.00 = $40.00`);
      expect(mail.text).toContain(`- Sized Tee (L · White · SKU ${l.sku}): 1 x $20.00 = $20.00`);
      expect(mail.text).toContain(
        `- Trainer (EU 42 (US 8.5) · SKU ${shoe.variants[0]!.sku}): 1 x $80.00 = $80.00`,
      );
      expect(mail.html).toContain(
        `Sized Tee<br><span style="color: #555; font-size: 0.9em;">M · Black · SKU ${m.sku}</span>`,
      );
      expect(mail.html).toContain(`L · White · SKU ${l.sku}`);
      expect(mail.html).toContain(`EU 42 (US 8.5) · SKU ${shoe.variants[0]!.sku}`);
      expect(`${mail.text}${mail.html}`).not.toContain("RENAMED-1");
    }
  });

  it("escapes every typed value in the HTML part: product titles, the user name, the address", async () => {
    await saveAddress(shopper.id, {
      address: `1 <img src=x onerror=alert(1)> Road`,
      city: "London",
      pincode: "E1",
      phone: "555",
      notes: `"quoted" & 'single'`,
    });
    const product = await createProduct({ title: `<i>Hat</i>` });
    await putInCart(shopper.id, product.id, 1);
    const addresses = await getDb().models.Address.findAll({ where: { userId: shopper.id }, raw: true });
    const created = await createOrderFromCart(shopper, { addressId: addresses[0]!.id });
    const answer = await payerAnswers(created.order.paymentId!, "approve");
    await captureOrderPayment(shopper, { paymentId: answer.token });
    const [mail] = await outbox();
    expect(mail!.html).not.toMatch(/<img|<i>|<b>Bold/);
    expect(mail!.html).toContain(escapeHtml("<i>Hat</i>"));
    expect(mail!.html).toContain("Sam &lt;b&gt;Bold&lt;/b&gt; Shopper");
    expect(mail!.html).toContain("1 &lt;img src=x onerror=alert(1)&gt; Road");
    expect(mail!.html).toContain("&quot;quoted&quot; &amp; &#39;single&#39;");
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });

  it("is enqueued once: a repeated capture of a paid order mails nothing new", async () => {
    const order = await paidOrder();
    await captureOrderPayment(shopper, { paymentId: order.paymentId });
    expect(await outbox()).toHaveLength(1);
  });

  it("is not enqueued when the payment is declined", async () => {
    const product = await createProduct();
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    await payerAnswers(created.order.paymentId!, "decline");
    await captureOrderPayment(shopper, { paymentId: created.order.paymentId! }).catch(() => undefined);
    expect(await outbox()).toEqual([]);
  });

  it("a refund after the stock ran out mails 'Your payment was refunded'", async () => {
    const product = await createProduct({ title: "Scarf", totalStock: 1, price: "25.00" });
    const order = await approvedOrder(shopper, product.id);
    await createSimulatorGateway().captureOrder({ providerOrderId: order.paymentId, requestId: "lost" });
    await getDb().models.Product.update({ totalStock: 0 }, { where: { id: product.id } });
    await captureOrderPayment(shopper, { paymentId: order.paymentId }).catch(() => undefined);
    const mails = await outbox();
    expect(mails.map((mail) => [mail.kind, mail.subject])).toEqual([
      ["order-refunded", "Your payment was refunded"],
    ]);
    expect(mails[0]!.text).toContain("$25.00");
  });
});

describe("status mails", () => {
  it("inShipping and delivered each mail once; inProcess mails nothing", async () => {
    const order = await paidOrder();
    await updateOrderStatus(order.orderId, { orderStatus: "inProcess" });
    await updateOrderStatus(order.orderId, { orderStatus: "inShipping" });
    await updateOrderStatus(order.orderId, { orderStatus: "inShipping" });
    await updateOrderStatus(order.orderId, { orderStatus: "delivered" });
    const mails = await outbox();
    expect(mails.map((mail) => mail.kind)).toEqual([
      "order-confirmed",
      "order-in-shipping",
      "order-delivered",
    ]);
    expect(mails[1]!.subject).toBe("Your order is on its way");
    expect(mails[2]!.subject).toBe("Your order was delivered");
    expect(mails[1]!.text).toContain(order.orderId);
  });

  it("rejecting an unpaid order mails 'cancelled'; rejecting a paid one mails 'refunded' once the money is back", async () => {
    const unpaid = await createOrderRow({ userId: shopper.id });
    await updateOrderStatus(unpaid.id, { orderStatus: "rejected" });
    const paid = await paidOrder();
    await updateOrderStatus(paid.orderId, { orderStatus: "rejected" });
    // Rejecting it again (a second click) mails nothing new.
    await updateOrderStatus(paid.orderId, { orderStatus: "rejected" });
    const mails = (await outbox()).filter((mail) => !mail.kind.endsWith("confirmed"));
    expect(mails.map((mail) => [mail.kind, mail.subject])).toEqual([
      ["order-rejected", "Your order was cancelled"],
      ["order-refunded", "Your payment was refunded"],
    ]);
  });

  it("an unknown order changes nothing and mails nothing (404)", async () => {
    await expect(
      updateOrderStatus("00000000-0000-4000-8000-000000000000", { orderStatus: "delivered" }),
    ).rejects.toMatchObject({ status: 404 });
    expect(await outbox()).toEqual([]);
  });

  it("many status changes at once on one order mail each new status once", async () => {
    const order = await paidOrder();
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        updateOrderStatus(order.orderId, { orderStatus: i % 2 ? "inShipping" : "delivered" }),
      ),
    );
    const kinds = (await outbox()).map((mail) => mail.kind).sort();
    expect(kinds).toEqual(["order-confirmed", "order-delivered", "order-in-shipping"]);
  });
});
