import type { Transaction } from "sequelize";
import { getConfig } from "~/lib/server/config.server";
import { formatGiftCardCode } from "~/lib/shared/gift-cards";
import { centsToDecimal } from "~/lib/shared/money";
import { enqueueMail } from "./outbox.server";
import { button, escapeHtml, htmlDocument, SHOP_NAME } from "./templates.server";

/**
 * The gift card's mail to its recipient: the only place its code is ever shown in full (the shop keeps its
 * hash). Written to the outbox in the transaction that issues the card, once per card.
 */
export async function enqueueGiftCardMail(
  transaction: Transaction,
  card: {
    cardId: string;
    code: string;
    cents: number;
    recipientEmail: string;
    recipientName: string | null;
    senderName: string | null;
    message: string | null;
  },
): Promise<void> {
  const code = formatGiftCardCode(card.code);
  const amount = `$${centsToDecimal(card.cents)}`;
  const from = card.senderName ? `${card.senderName} sent you` : "You have received";
  const subject = `${from} a ${amount} ${SHOP_NAME} gift card`;
  const shop = `${getConfig().appUrl}/shop/home`;
  const greeting = card.recipientName ? `Hello ${card.recipientName},` : "Hello,";
  const text = [
    greeting,
    "",
    `${from} a ${SHOP_NAME} gift card worth ${amount}.`,
    ...(card.message ? ["", card.message] : []),
    "",
    `Your code: ${code}`,
    "",
    "Enter it at checkout to pay with it; what you do not spend stays on the card. Keep this mail: the code is",
    "shown nowhere else.",
    "",
    shop,
  ].join("\n");
  const html = htmlDocument(
    subject,
    `<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(from)} a ${SHOP_NAME} gift card worth <strong>${amount}</strong>.</p>
${card.message ? `<blockquote style="border-left: 3px solid #ccc; margin: 0; padding-left: 1rem;">${escapeHtml(card.message)}</blockquote>` : ""}
<p>Your code:</p>
<p style="font-family: monospace; font-size: 1.3rem; letter-spacing: 0.1rem;">${code}</p>
<p>Enter it at checkout to pay with it; what you do not spend stays on the card. Keep this mail: the code is
shown nowhere else.</p>
${button(shop, "Go to the shop")}`,
  );
  await enqueueMail(
    {
      kind: "gift-card",
      to: card.recipientEmail,
      subject,
      text,
      html,
      dedupeKey: `gift-card:${card.cardId}`,
    },
    transaction,
  );
}
