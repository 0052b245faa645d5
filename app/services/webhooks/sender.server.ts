import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import pg from "pg";
import type { Sequelize } from "sequelize";
import {
  AddressRefusedError,
  resolvePublicTarget,
  type GuardOptions,
} from "~/lib/server/address-guard.server";
import { getLogger } from "~/lib/server/logger.server";
import { signWebhook } from "~/lib/server/standard-webhooks.server";
import { WEBHOOK_TIMEOUT_MS } from "~/lib/shared/webhooks";
import { getDb } from "~/models/db.server";
import {
  claimDueDeliveries,
  markDelivered,
  markFailed,
  payloadOf,
  setWebhookSenderWake,
  type AttemptOutcome,
  type ClaimedDelivery,
} from "./deliveries.server";

/**
 * Sends the webhook deliveries (deliveries.server.ts), outside every request
 * and every transaction. Each delivery runs on its own: a slow endpoint holds
 * at most `perEndpoint` of the `maxInFlight` slots for at most the timeout,
 * and the others go on. It wakes when a transaction that wrote an event
 * commits (PostgreSQL's NOTIFY from the trigger, LISTENed to on a connection
 * of its own) and polls as a backstop. Delivery is at least once: a process
 * killed mid-send leaves its claims to expire, and the next sender sends them
 * with the same `webhook-id`.
 */

/** Standard Webhooks' schedule after the first attempt: 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const WEBHOOK_RETRY_DELAYS_MS = [
  60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

export interface WebhookSenderOptions {
  sequelize?: Sequelize;
  guard: GuardOptions;
  timeoutMs?: number;
  maxInFlight?: number;
  perEndpoint?: number;
  /** Longer than the timeout: how long a claim belongs to this sender. */
  leaseMs?: number;
  retryDelaysMs?: readonly number[];
  pollMs?: number;
  /** LISTEN for commits (off in tests that drive rounds by hand). */
  listen?: boolean;
  log?: (message: string) => void;
}

interface PostResult {
  statusCode: number;
}

/** POSTs `body` to the checked address, never to whatever the name resolves to by then. */
function post(
  target: { url: URL; address: string; family: 4 | 6 },
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostResult> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target.url,
      {
        method: "POST",
        lookup: pinned,
        agent: false,
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
      },
      (response) => {
        // The answer's body is not kept: drain it so the socket closes.
        response.resume();
        response.on("end", () => resolve({ statusCode: response.statusCode ?? 0 }));
        response.on("error", reject);
      },
    );
    const timer = setTimeout(
      () => request.destroy(new Error(`No answer within ${Math.round(timeoutMs / 1000)} s`)),
      timeoutMs,
    );
    request.on("close", () => clearTimeout(timer));
    request.on("error", reject);
    request.end(body);
  });
}

export class WebhookSender {
  private readonly options: Required<Omit<WebhookSenderOptions, "sequelize">> & { sequelize?: Sequelize };
  private inFlight = new Set<Promise<void>>();
  private pumping: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private draining = false;
  private timer: NodeJS.Timeout | null = null;
  private listener: pg.Client | null = null;

  constructor(options: WebhookSenderOptions) {
    this.options = {
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      maxInFlight: 32,
      perEndpoint: 4,
      leaseMs: 60_000,
      retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS,
      pollMs: 5_000,
      listen: true,
      log: (message) => getLogger().info(message),
      ...options,
    };
  }

  private get sequelize(): Sequelize {
    return this.options.sequelize ?? getDb().sequelize;
  }

  /** Claims what fits in the free slots and starts each; resolves when the claim is made (not the sends). */
  pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return this.pumping;
    }
    this.pumping = (async () => {
      do {
        this.again = false;
        const free = this.options.maxInFlight - this.inFlight.size;
        const claimed = await claimDueDeliveries(this.sequelize, {
          limit: free,
          perEndpoint: this.options.perEndpoint,
          leaseMs: this.options.leaseMs,
        });
        for (const delivery of claimed) {
          const running: Promise<void> = this.deliver(delivery)
            .catch((error: unknown) => this.failed(error))
            .finally(() => {
              this.inFlight.delete(running);
              // A freed slot is filled at once, so one slow send never waits for the others to end.
              if (!this.stopped || this.draining) this.pump().catch(this.failed);
            });
          this.inFlight.add(running);
        }
        if (claimed.length === free && free > 0) this.again = true;
      } while (this.again && this.inFlight.size < this.options.maxInFlight);
    })().finally(() => {
      this.pumping = null;
    });
    return this.pumping;
  }

  /** Runs rounds until nothing is due or in flight (tests and scripts). */
  async drain(): Promise<void> {
    this.draining = true;
    try {
      for (;;) {
        await this.pump();
        if (!this.inFlight.size && !this.pumping) return;
        await Promise.all([...this.inFlight, this.pumping]);
      }
    } finally {
      this.draining = false;
    }
  }

  private failed = (error: unknown) => {
    try {
      this.options.log(`Webhook sender: ${String(error)}`);
    } catch {
      // Nowhere to tell it: the next round tries again.
    }
  };

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const started = performance.now();
    const outcome: AttemptOutcome = { statusCode: null, durationMs: 0, error: null };
    try {
      const target = await resolvePublicTarget(delivery.url, this.options.guard);
      const data = await payloadOf(delivery, this.sequelize);
      const body = JSON.stringify({
        type: delivery.type,
        timestamp: new Date(delivery.occurredAt).toISOString(),
        data,
      });
      const timestamp = Math.floor(Date.now() / 1000);
      const result = await post(
        target,
        {
          "Content-Type": "application/json",
          "User-Agent": "ECommerce-Shopping-Webhooks/1",
          "webhook-id": delivery.eventId,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signWebhook(delivery.secret, delivery.eventId, timestamp, body),
        },
        body,
        this.options.timeoutMs,
      );
      outcome.statusCode = result.statusCode;
      if (result.statusCode < 200 || result.statusCode > 299) outcome.error = `HTTP ${result.statusCode}`;
    } catch (error) {
      outcome.error =
        error instanceof AddressRefusedError
          ? `Refused: ${error.message}`
          : error instanceof Error
            ? error.message
            : String(error);
    }
    outcome.durationMs = Math.round(performance.now() - started);
    if (!outcome.error) {
      await markDelivered(this.sequelize, delivery, outcome);
      return;
    }
    const delays = this.options.retryDelaysMs;
    const giveUp = delivery.attempts > delays.length;
    const retryInMs = delays[Math.min(delivery.attempts - 1, delays.length - 1)]!;
    const switchedOff = await markFailed(this.sequelize, delivery, outcome, { retryInMs, giveUp });
    if (switchedOff) this.options.log(`Webhook endpoint ${delivery.url} switched off: too many failures`);
  }

  private wakeTimer: NodeJS.Timeout | null = null;

  /**
   * A commit wrote an event (or an admin asked for a retry). Wakes within 50 ms,
   * once for every commit of those 50 ms: a busy checkout commits many events,
   * and one claim serves them all.
   */
  wake = () => {
    if (this.stopped || this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      if (!this.stopped) this.pump().catch(this.failed);
    }, 50);
    this.wakeTimer.unref();
  };

  async start(): Promise<void> {
    this.stopped = false;
    setWebhookSenderWake(this.wake);
    if (this.options.listen) await this.listen().catch(this.failed);
    this.schedule(0);
  }

  /** A connection of its own that hears each commit that wrote an event. */
  private async listen(): Promise<void> {
    const config = this.sequelize.config;
    const client = new pg.Client({
      host: config.host,
      port: config.port ? Number(config.port) : undefined,
      user: config.username,
      password: config.password ?? undefined,
      database: config.database,
      ssl: (config.dialectOptions as { ssl?: pg.ClientConfig["ssl"] } | undefined)?.ssl,
      // A database that does not answer must not hold up the server's start: the poll listens again later.
      connectionTimeoutMillis: 5_000,
    });
    const lost = (error?: unknown) => {
      if (error) this.failed(error);
      if (this.listener === client) this.listener = null;
    };
    client.on("error", lost);
    client.on("end", () => lost());
    client.on("notification", () => this.wake());
    try {
      await client.connect();
      await client.query("LISTEN webhook_deliveries");
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
  }

  private schedule(delay: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const relisten = this.options.listen && !this.listener ? this.listen().catch(this.failed) : null;
      Promise.resolve(relisten)
        .then(() => this.pump())
        .catch(this.failed)
        .finally(() => this.schedule(this.options.pollMs));
    }, delay);
    this.timer.unref();
  }

  /** Stops claiming and waits for the sends in flight (each ends within the timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    setWebhookSenderWake(undefined);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.pumping?.catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
  }
}

/** The sender of this process, as the configuration says. */
export async function startWebhookSender(
  guard: GuardOptions,
  log?: (message: string) => void,
): Promise<WebhookSender> {
  const sender = new WebhookSender({ guard, ...(log ? { log } : {}) });
  await sender.start();
  return sender;
}
