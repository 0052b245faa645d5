import { mkdir, writeFile } from "node:fs/promises";
import { getLogger } from "~/lib/server/logger.server";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Sequelize } from "sequelize";
import type { MailConfig } from "~/lib/server/config.server";
import { getDb } from "~/models/db.server";
import {
  claimDueMails,
  markMailFailed,
  markMailSent,
  setMailSenderWake,
  type ClaimedMail,
} from "./outbox.server";
import { enqueueStockAlertMails } from "./stock-alert-mails.server";
import { enqueueAbandonedCartMails } from "./abandoned-cart-mails.server";

/**
 * Delivers the outbox (outbox.server.ts). One round: claim a few due mails (a
 * short statement), send each with no transaction open (docs/architecture.md, rule 9), mark
 * it sent or schedule a retry with exponential backoff, and go on while mails
 * are due. Delivery is at least once: a crash between the mail server's "OK"
 * and the mark sends that one mail again after the lease, with the same
 * Message-ID so that mail clients can tell the copies apart.
 */

export interface MailTransport {
  /** Delivers one mail; resolves with a description for the log (never the body). */
  deliver(mail: ClaimedMail): Promise<string>;
  close(): void;
}

interface SenderOptions {
  transport: MailTransport;
  sequelize?: Sequelize;
  /** Mails claimed per statement. */
  batchSize?: number;
  /** How long a claimed mail belongs to this sender. */
  leaseMs?: number;
  /** First retry after this long, doubling with every attempt up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** After this many attempts a mail is marked failed and left alone. */
  maxAttempts?: number;
  log?: (message: string) => void;
}

const MAIL_DEFAULTS = {
  batchSize: 5,
  leaseMs: 10 * 60_000,
  backoffMs: 30_000,
  maxBackoffMs: 60 * 60_000,
  maxAttempts: 12,
} as const;

export function backoffFor(attempts: number, backoffMs: number, maxBackoffMs: number): number {
  return Math.min(maxBackoffMs, backoffMs * 2 ** Math.max(0, attempts - 1));
}

/** `<id@domain-of-from>`: the same Message-ID on every attempt of one outbox row. */
function messageIdFor(id: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? "localhost";
  return `<${id}@${domain}>`;
}

function messageOf(mail: ClaimedMail, from: string) {
  return {
    from,
    to: mail.recipient,
    subject: mail.subject,
    text: mail.textBody,
    html: mail.htmlBody,
    messageId: messageIdFor(mail.id, from),
    headers: mail.headers ?? {},
  };
}

/** Through an SMTP server (SMTP_URL), with timeouts so that a send never outlives its lease. */
export function createSmtpTransport(smtpUrl: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  return {
    async deliver(mail) {
      const info = await transporter.sendMail(messageOf(mail, from));
      return `sent by SMTP (${String(info.messageId)})`;
    },
    close: () => transporter.close(),
  };
}

/** Without SMTP: each mail becomes an .eml file under `dir` that any mail program opens. */
export function createFileTransport(dir: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async deliver(mail) {
      const info = await transporter.sendMail(messageOf(mail, from));
      await mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const file = path.join(dir, `${stamp}-${mail.kind}-${mail.id}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      return `written to ${file}`;
    },
    close: () => transporter.close(),
  };
}

function createTransportFromConfig(mail: MailConfig): MailTransport {
  return mail.smtpUrl
    ? createSmtpTransport(mail.smtpUrl, mail.from)
    : createFileTransport(mail.dir, mail.from);
}

interface RoundResult {
  sent: number;
  failed: number;
}

export class OutboxSender {
  private readonly options: Required<Omit<SenderOptions, "sequelize">> & { sequelize?: Sequelize };
  private running: Promise<RoundResult> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private pollMs = 0;
  private stopped = true;

  constructor(options: SenderOptions) {
    this.options = {
      ...MAIL_DEFAULTS,
      log: (message) => getLogger().info(message),
      ...options,
    };
  }

  private get sequelize(): Sequelize {
    return this.options.sequelize ?? getDb().sequelize;
  }

  /** Sends every due mail; concurrent calls share the round in progress. */
  runOnce(): Promise<RoundResult> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.round().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async round(): Promise<RoundResult> {
    const result: RoundResult = { sent: 0, failed: 0 };
    const { batchSize, leaseMs } = this.options;
    // Alerts the database fired since the last round become outbox mails first (a trigger cannot render
    // them); a failure there is logged and leaves them for the next round, never holding up other mails.
    await enqueueStockAlertMails(this.sequelize).catch(this.roundFailed);
    // Carts left long enough get their reminders the same way: the database says which, once each.
    await enqueueAbandonedCartMails(this.sequelize).catch(this.roundFailed);
    for (;;) {
      this.again = false;
      const claimed = await claimDueMails(this.sequelize, batchSize, leaseMs);
      for (const mail of claimed) {
        if (await this.deliver(mail)) result.sent += 1;
        else result.failed += 1;
      }
      if (claimed.length < batchSize && !this.again) return result;
    }
  }

  private async deliver(mail: ClaimedMail): Promise<boolean> {
    const { transport, log, backoffMs, maxBackoffMs, maxAttempts } = this.options;
    let outcome: string;
    try {
      outcome = await transport.deliver(mail);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const giveUp = mail.attempts >= maxAttempts;
      const retryInMs = backoffFor(mail.attempts, backoffMs, maxBackoffMs);
      await markMailFailed(this.sequelize, mail.id, reason, retryInMs, giveUp);
      log(
        giveUp
          ? `Mail ${mail.id} "${mail.subject}" failed ${mail.attempts} times; giving up: ${reason}`
          : `Mail ${mail.id} "${mail.subject}" failed (attempt ${mail.attempts}), retrying in ${Math.round(retryInMs / 1000)} s: ${reason}`,
      );
      return false;
    }
    await markMailSent(this.sequelize, mail.id);
    log(`Mail "${mail.subject}" ${outcome}`);
    return true;
  }

  /**
   * A round that failed (the database away, say) is logged and the next one
   * tries again; nothing of it may escape as an unhandled rejection, which
   * would end the process, so not even a log that throws.
   */
  private roundFailed = (error: unknown) => {
    try {
      this.options.log(`Mail sender round failed: ${String(error)}`);
    } catch {
      // Nowhere left to tell it: the next round tries again.
    }
  };

  /** Runs a round now (debounced by the round in progress): the outbox calls this after a commit. */
  wake = () => {
    if (this.stopped) return;
    this.runOnce().catch(this.roundFailed);
  };

  /** Polls every `pollMs` (an unref'd timer: it never keeps the process alive) and answers wakes. */
  start(pollMs: number): void {
    this.stopped = false;
    this.pollMs = pollMs;
    setMailSenderWake(this.wake);
    this.schedule(0);
  }

  private schedule(delay: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.runOnce()
        .catch(this.roundFailed)
        .finally(() => this.schedule(this.pollMs));
    }, delay);
    this.timer.unref();
  }

  /** Stops polling, waits for the round in progress, closes the transport. */
  async stop(): Promise<void> {
    this.stopped = true;
    setMailSenderWake(undefined);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
    this.options.transport.close();
  }
}

/** The sender of this process, delivering as the configuration says. */
export function startMailSender(mail: MailConfig, log?: (message: string) => void): OutboxSender {
  const sender = new OutboxSender({ transport: createTransportFromConfig(mail), log });
  sender.start(mail.pollSeconds * 1000);
  return sender;
}
