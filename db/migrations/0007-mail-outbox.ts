import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * Mail that cannot get lost:
 * - `mail_outbox`: a transactional outbox. A mail is inserted in the same
 *   transaction as the event that causes it (an order confirmed, a status
 *   changed, a reset requested), so it exists exactly when the event does. The
 *   sender (app/services/mail/sender.server.ts) claims due rows with
 *   `FOR UPDATE SKIP LOCKED`, pushes `next_attempt_at` ahead as a lease, sends
 *   outside any transaction and marks the row sent (or schedules a retry with
 *   exponential backoff). `dedupe_key` makes enqueueing an event twice harmless.
 * - `password_reset_tokens`: single-use reset links. Only the SHA-256 of the
 *   token is stored: a copy of the database cannot reset anybody's password.
 */

const up = `
CREATE TABLE mail_outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind varchar(40) NOT NULL,
  dedupe_key varchar(200) UNIQUE,
  recipient varchar(254) NOT NULL CHECK (position('@' in recipient) > 1),
  subject varchar(300) NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL,
  status varchar(10) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- The sender's question, "which pending mails are due?", reads only this small index.
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE status = 'pending';

CREATE TABLE password_reset_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash char(64) NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_reset_tokens_user_idx ON password_reset_tokens (user_id);
`;

const down = `
DROP TABLE IF EXISTS password_reset_tokens, mail_outbox;
`;

export const mailOutboxUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const mailOutboxDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
