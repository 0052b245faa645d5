import { QueryTypes, type Sequelize, type Transaction } from "sequelize";
import { getDb } from "~/models/db.server";
import { processSingleton } from "~/lib/server/process-singleton.server";

/**
 * The transactional outbox (migration 0007). Code that causes a mail calls
 * `enqueueMail` with its own transaction: the mail row commits or rolls back
 * with the event. Nothing here talks to a mail server; the sender
 * (sender.server.ts) claims due rows, sends them outside any transaction and
 * marks them with the functions below, each one short statement.
 */

export type MailKind =
  | "password-reset"
  | "password-changed"
  | "order-confirmed"
  | "guest-order-link"
  | "order-in-shipping"
  | "order-tracking"
  | "order-delivered"
  | "order-rejected"
  | "order-refunded"
  | "return-requested"
  | "return-approved"
  | "return-rejected"
  | "return-refunded"
  | "exchange-requested"
  | "exchange-approved"
  | "exchange-rejected"
  | "exchange-received"
  | "exchange-shipped"
  | "webhook-disabled"
  | "stock-alert"
  | "staff-invite"
  | "two-factor-changed"
  | "guest-order-claim"
  | "abandoned-cart"
  | "gift-card";

export interface OutgoingMail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * One mail per key, ever: enqueueing the same event twice (a retried
   * request, a status set twice) keeps the first. Null: no such rule.
   */
  dedupeKey?: string | null;
  /** Headers beyond the usual ones (List-Unsubscribe, RFC 8058), sent as given. */
  headers?: Record<string, string>;
}

export interface ClaimedMail {
  id: string;
  kind: MailKind;
  recipient: string;
  subject: string;
  textBody: string;
  htmlBody: string;
  headers: Record<string, string>;
  /** Including this one. */
  attempts: number;
}

const sender = () => processSingleton<{ wake?: () => void }>("mail-sender-wake", () => ({}));

/**
 * The running sender (if this process has one) registers here, so that a mail
 * goes out right after its transaction commits instead of at the next poll.
 * A process singleton: the HTTP server starts the sender, the framework's
 * server build (a separate module graph) writes the mails.
 */
export function setMailSenderWake(wake: (() => void) | undefined): void {
  sender().wake = wake;
}

function wakeSender(): void {
  sender().wake?.();
}

/**
 * Writes `mail` to the outbox inside `transaction` (pass the event's own).
 * Returns false when a mail with the same dedupe key already exists.
 */
export async function enqueueMail(mail: OutgoingMail, transaction?: Transaction): Promise<boolean> {
  const rows = await getDb().sequelize.query<{ id: string }>(
    `INSERT INTO mail_outbox (kind, dedupe_key, recipient, subject, text_body, html_body, headers)
     VALUES (:kind, :dedupeKey, :recipient, :subject, :text, :html, :headers::jsonb)
     ON CONFLICT (dedupe_key) DO NOTHING
     RETURNING id`,
    {
      replacements: {
        kind: mail.kind,
        dedupeKey: mail.dedupeKey ?? null,
        recipient: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: JSON.stringify(mail.headers ?? {}),
      },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  if (transaction) transaction.afterCommit(wakeSender);
  else wakeSender();
  return rows.length > 0;
}

/**
 * Claims up to `limit` due mails in one short statement: `SKIP LOCKED` lets
 * several senders (app instances) claim side by side without waiting for or
 * taking each other's rows, and `next_attempt_at` moves `leaseMs` ahead so that
 * nobody else claims them while this sender works outside the transaction. A
 * sender that dies mid-send leaves its rows to be claimed again after the lease.
 */
export async function claimDueMails(sequelize: Sequelize, limit: number, leaseMs: number) {
  return sequelize.query<ClaimedMail>(
    `WITH due AS (
       SELECT id FROM mail_outbox
        WHERE status = 'pending' AND next_attempt_at <= now()
        ORDER BY next_attempt_at, id
        LIMIT :limit
        FOR UPDATE SKIP LOCKED
     )
     UPDATE mail_outbox m
        SET attempts = m.attempts + 1,
            next_attempt_at = now() + make_interval(secs => :leaseSeconds),
            updated_at = now()
       FROM due
      WHERE m.id = due.id
     RETURNING m.id, m.kind, m.recipient, m.subject, m.text_body AS "textBody",
               m.html_body AS "htmlBody", m.headers, m.attempts`,
    { replacements: { limit, leaseSeconds: leaseMs / 1000 }, type: QueryTypes.SELECT },
  );
}

export async function markMailSent(sequelize: Sequelize, id: string): Promise<void> {
  await sequelize.query(
    `UPDATE mail_outbox SET status = 'sent', sent_at = now(), last_error = NULL, updated_at = now()
      WHERE id = :id AND status = 'pending'`,
    { replacements: { id } },
  );
}

/** Schedules the next attempt in `retryInMs`, or gives up (`failed`) when `giveUp`. */
export async function markMailFailed(
  sequelize: Sequelize,
  id: string,
  error: string,
  retryInMs: number,
  giveUp: boolean,
): Promise<void> {
  await sequelize.query(
    `UPDATE mail_outbox
        SET status = :status, last_error = :error, updated_at = now(),
            next_attempt_at = now() + make_interval(secs => :retrySeconds)
      WHERE id = :id AND status = 'pending'`,
    {
      replacements: {
        id,
        status: giveUp ? "failed" : "pending",
        error: error.slice(0, 2000),
        retrySeconds: retryInMs / 1000,
      },
    },
  );
}
