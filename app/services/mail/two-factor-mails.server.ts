import type { Transaction } from "sequelize";
import { getConfig } from "~/lib/server/config.server";
import { enqueueMail } from "./outbox.server";
import { button, htmlDocument, SHOP_NAME } from "./templates.server";

/**
 * The notice after any change of someone's two-factor sign-in: the owner learns of a change they did
 * not make (a stolen session turning it off, an admin resetting it). Like the password mails it
 * greets nobody by name and prints only the shop's words and links. Written to the outbox in the
 * transaction of the change.
 */

export type TwoFactorChange = "on" | "off" | "reset";

const WHAT: Record<TwoFactorChange, { subject: string; line: string }> = {
  on: {
    subject: `Two-factor sign-in is on for your ${SHOP_NAME} account`,
    line: `Two-factor sign-in was just turned on for your ${SHOP_NAME} account: signing in now takes a code from your authenticator app.`,
  },
  off: {
    subject: `Two-factor sign-in is off for your ${SHOP_NAME} account`,
    line: `Two-factor sign-in was just turned off for your ${SHOP_NAME} account: signing in takes only your password now.`,
  },
  reset: {
    subject: `An admin reset two-factor sign-in for your ${SHOP_NAME} account`,
    line: `An admin of ${SHOP_NAME} just reset two-factor sign-in for your account: it is off until you set it up again.`,
  },
};

export async function enqueueTwoFactorMail(
  transaction: Transaction,
  to: string,
  change: TwoFactorChange,
): Promise<void> {
  const { subject, line } = WHAT[change];
  const forgotLink = `${getConfig().appUrl}/auth/forgot-password`;
  const text = [
    "Hello,",
    "",
    line,
    "If that was you (or you asked for it), there is nothing to do.",
    `If it was not, choose a new password at once: ${forgotLink}`,
  ].join("\n");
  const html = htmlDocument(
    subject,
    `<p>Hello,</p>
<p>${line}</p>
<p>If that was you (or you asked for it), there is nothing to do. If it was not, choose a new password at once:</p>
${button(forgotLink, "Choose a new password")}`,
  );
  await enqueueMail({ kind: "two-factor-changed", to, subject, text, html }, transaction);
}
