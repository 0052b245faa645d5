import { QueryTypes, type Transaction } from "sequelize";
import { getConfig } from "~/lib/server/config.server";
import { getDb } from "~/models/db.server";
import { enqueueMail } from "./outbox.server";
import { escapeHtml } from "./templates.server";

/**
 * The mail every admin gets when the shop switches a webhook endpoint off:
 * which one, why, and where to switch it on again. Written in the transaction
 * that switches it off, so the mail exists exactly when the switch-off does.
 */
export async function enqueueWebhookDisabledMails(
  endpoint: { id: string; url: string; reason: string },
  transaction: Transaction,
): Promise<number> {
  const { sequelize } = getDb();
  const admins = await sequelize.query<{ email: string }>(
    `SELECT email FROM users WHERE role = 'admin' ORDER BY email`,
    { type: QueryTypes.SELECT, transaction },
  );
  const link = `${getConfig().appUrl}/admin/webhooks?endpoint=${endpoint.id}`;
  const subject = "A webhook endpoint was switched off";
  const text = [
    "The shop stopped sending events to this webhook endpoint:",
    "",
    endpoint.url,
    "",
    `Why: ${endpoint.reason}`,
    "",
    "Its events are kept. When the receiver works again, switch the endpoint on and they are sent:",
    link,
  ].join("\n");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: Arial, Helvetica, sans-serif; color: #111; line-height: 1.5; max-width: 40rem; margin: 0 auto; padding: 1rem;">
<p>The shop stopped sending events to this webhook endpoint:</p>
<p><code>${escapeHtml(endpoint.url)}</code></p>
<p>Why: ${escapeHtml(endpoint.reason)}</p>
<p>Its events are kept. When the receiver works again, switch the endpoint on and they are sent:
<a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
</body></html>
`;
  for (const admin of admins) {
    await enqueueMail({ kind: "webhook-disabled", to: admin.email, subject, text, html }, transaction);
  }
  return admins.length;
}
