import type { Transaction } from "sequelize";
import { GUEST_ORDER_CLAIM_HOURS } from "~/lib/shared/guest-order-claims";
import { enqueueMail } from "./outbox.server";
import { button, escapeHtml, htmlDocument, SHOP_NAME } from "./templates.server";

/**
 * The link that joins the guest orders of an address to the account of that address. Like the password
 * mails it greets nobody by name and prints only the shop's words and the link: the account's name is what
 * its registrant typed, and the address was never confirmed, so the mailbox's owner may not be that
 * person. Written to the outbox in the transaction that stores the link.
 */
export async function enqueueGuestOrderClaimMail(
  transaction: Transaction,
  to: string,
  link: string,
): Promise<void> {
  const subject = `Add your guest orders to your ${SHOP_NAME} account`;
  const intro = `Somebody (hopefully you) signed in to the ${SHOP_NAME} account of this address and asked for the orders placed here as a guest.`;
  const how = `Open this link within ${GUEST_ORDER_CLAIM_HOURS} hours, signed in to that account, to add them to its order history:`;
  const text = [
    "Hello,",
    "",
    intro,
    how,
    "",
    link,
    "",
    "The link works once. If you did not ask for it, ignore this message: your orders stay as they are.",
  ].join("\n");
  const html = htmlDocument(
    subject,
    `<p>Hello,</p>
<p>${intro} ${how}</p>
${button(link, "Add my guest orders")}
<p>Or copy this address into your browser: ${escapeHtml(link)}</p>
<p>The link works once. If you did not ask for it, ignore this message: your orders stay as they are.</p>`,
  );
  await enqueueMail({ kind: "guest-order-claim", to, subject, text, html }, transaction);
}
