import type { Server } from "node:http";
import type { ServerBuild } from "react-router";
import type { AppConfig } from "../app/lib/server/config.server";
import { closeDb } from "../app/models/db.server";
import { closeSimulatorPool } from "../app/payments/simulator.server";
import { settleWorkAfterAnswers } from "../app/lib/server/after-answer.server";
import { startMailSender } from "../app/services/mail/sender.server";
import { startWebhookSender } from "../app/services/webhooks/sender.server";
import { createApp } from "./app";
import { log } from "./startup";

/**
 * The part of the server that answers HTTP: the Express app on the server
 * build, and the outbox's mail sender. A cluster worker runs exactly this; the
 * single process (WEB_CONCURRENCY=1) runs it beside the database and the
 * payment reconciler.
 *
 * The mail sender runs in every HTTP process: the outbox wakes the sender of
 * the process that wrote a mail right after the commit (so a mail leaves at
 * once), and claims are SKIP LOCKED with a lease, so several senders never
 * send one mail twice. Each also polls every MAIL_POLL_SECONDS: one small query
 * per worker.
 */
export interface HttpProcess {
  server: Server;
  /** Stops accepting, finishes the open requests, stops the mail sender and closes the database pools. */
  close(): Promise<void>;
}

/**
 * How long an idle keep-alive connection stays open. Node's default (5 s) is
 * shorter than the idle timeout of the clients and proxies in front of the
 * shop (60 s for most load balancers; connection pools keep sockets open for
 * reuse): one of them sending a request on a socket the server is closing at
 * that moment gets ECONNRESET, a failed request nobody caused. Longer than 60 s,
 * so the other side always closes first; the headers' timeout must exceed it.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export async function startHttpProcess(config: AppConfig, build: ServerBuild): Promise<HttpProcess> {
  const mailSender = startMailSender(config.mail, log);
  // Webhooks go out like mails: from every HTTP process, claims SKIP LOCKED with a lease.
  const webhookSender = await startWebhookSender(config.webhooks, log);
  const app = createApp({ build, config });
  const server = await new Promise<Server>((resolve, reject) => {
    const listening: Server = app.listen(config.port, config.host, () => resolve(listening));
    listening.once("error", reject);
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  return {
    server,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      // Requests answered before the close (reset and claim links) still write their token and mail.
      await settleWorkAfterAnswers();
      await mailSender.stop();
      await webhookSender.stop();
      await closeSimulatorPool();
      await closeDb();
    },
  };
}
