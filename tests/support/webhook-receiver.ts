import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A webhook receiver on 127.0.0.1 for the tests: it records every request
 * (headers, raw body, arrival time) and answers as `answer` says (a status,
 * after an optional delay; "hang" never answers).
 */

export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
  at: number;
}

export type Answer = { status: number; delayMs?: number } | "hang";

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Decides each answer (default 200 at once); `index` counts requests from 0. */
  answer: (request: ReceivedWebhook, index: number) => Answer;
  /** Resolves when `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const hanging = new Set<http.ServerResponse>();
  let waiters: { count: number; resolve: () => void }[] = [];
  const receiver: WebhookReceiver = {
    url: "",
    received: [],
    answer: () => ({ status: 200 }),
    waitFor(count, timeoutMs = 10_000) {
      if (receiver.received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`Only ${receiver.received.length} of ${count} webhooks arrived`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    async close() {
      for (const response of hanging) response.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const entry: ReceivedWebhook = {
        path: request.url ?? "/",
        headers: request.headers,
        body,
        json: JSON.parse(body) as ReceivedWebhook["json"],
        at: Date.now(),
      };
      const index = receiver.received.push(entry) - 1;
      waiters = waiters.filter((waiter) => {
        if (receiver.received.length < waiter.count) return true;
        waiter.resolve();
        return false;
      });
      const answer = receiver.answer(entry, index);
      if (answer === "hang") {
        hanging.add(response);
        return;
      }
      setTimeout(() => response.writeHead(answer.status).end("ok"), answer.delayMs ?? 0);
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
