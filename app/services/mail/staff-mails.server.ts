import { PERMISSION_LABELS, type Permission } from "~/lib/shared/permissions";
import { button, escapeHtml, htmlDocument, SHOP_NAME, type RenderedMail } from "./templates.server";

/** The invitation a new staff member gets: who invited them, what they may open, and the link to choose a password. */
export function staffInviteMail(input: {
  userName: string;
  invitedBy: string;
  permissions: readonly Permission[];
  link: string;
  validHours: number;
}): RenderedMail {
  const subject = `You are invited to the ${SHOP_NAME} back office`;
  const areas = input.permissions.map((permission) => PERMISSION_LABELS[permission].label);
  const areaText = areas.length ? areas.join(", ") : "the dashboard (no areas yet)";
  const text = [
    `Hello ${input.userName},`,
    "",
    `${input.invitedBy} invited you to help run ${SHOP_NAME}. You may open: ${areaText}.`,
    `Open this link within ${input.validHours} hours to choose your password, then sign in with this email address:`,
    "",
    input.link,
    "",
    "The link works once. If you did not expect this invitation, ignore this message.",
  ].join("\n");
  const html = htmlDocument(
    subject,
    `<p>Hello ${escapeHtml(input.userName)},</p>
<p>${escapeHtml(input.invitedBy)} invited you to help run ${SHOP_NAME}. You may open: ${escapeHtml(areaText)}.</p>
<p>Open this link within ${input.validHours} hours to choose your password, then sign in with this email address:</p>
${button(input.link, "Choose your password")}
<p>Or copy this address into your browser: ${escapeHtml(input.link)}</p>
<p>The link works once. If you did not expect this invitation, ignore this message.</p>`,
  );
  return { subject, text, html };
}
