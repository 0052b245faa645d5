import { spawn } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import { getDb } from "../../app/models/db.server";
import { createWebhookEndpoint } from "../../app/services/webhooks/endpoints.server";
import { WebhookSender } from "../../app/services/webhooks/sender.server";
import { getConfig, setConfig, type AppConfig } from "../../app/lib/server/config.server";
import { resetDatabase } from "../support/database";
import { testDatabaseUrl } from "../support/worker-database";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * Webhooks survive a process killed with SIGKILL: an event committed with its
 * change is delivered by another process even when the one that wrote it
 * died before sending, and a send cut off mid-request is sent again, after
 * its lease, with the same webhook-id.
 */

let original: AppConfig;
let receiver: WebhookReceiver;

beforeEach(async () => {
  await resetDatabase();
  original = getConfig();
  setConfig({ ...original, webhooks: { ...original.webhooks, allowHttp: true, allowPrivate: true } });
  receiver = await startWebhookReceiver();
  await createWebhookEndpoint({ url: receiver.url, events: ["product.created"] });
});

afterEach(async () => {
  await receiver.close();
  setConfig(original);
});

function spawnDoomed(moment: "after-commit" | "mid-send") {
  // node itself runs the script (tsx as a loader), so the process killed is the one we wait for.
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "tests/support/webhook-commit-and-die.ts", moment],
    {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "development",
        DATABASE_URL: testDatabaseUrl(),
        SESSION_SECRET: "crash-test-session-secret-0123456789",
        PAYMENT_RECONCILE_INTERVAL_SECONDS: "0",
        LOG_LEVEL: "silent",
      },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += String(chunk)));
  const exited = new Promise<string>((resolve) =>
    child.on("exit", (code, signal) => resolve(signal ?? `exit code ${code}: ${stderr}`)),
  );
  return { child, exited };
}

const survivor = () =>
  new WebhookSender({
    guard: { allowHttp: true, allowPrivate: true },
    listen: false,
    retryDelaysMs: [0],
    log: () => {},
  });

describe("a process killed with SIGKILL", () => {
  it("between the commit and the delivery loses no event: another process sends it", async () => {
    const { exited } = spawnDoomed("after-commit");
    expect(await exited).toBe("SIGKILL");
    const [event] = await getDb().sequelize.query<{ id: string }>(`SELECT id FROM webhook_events`, {
      type: QueryTypes.SELECT,
    });
    expect(event).toBeTruthy();
    expect(receiver.received).toHaveLength(0);
    await survivor().drain();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers["webhook-id"]).toBe(event!.id);
    expect(receiver.received[0]!.json).toMatchObject({
      type: "product.created",
      data: { title: "Crash tee after-commit" },
    });
  });

  it("in the middle of a send: the event goes again after the lease, with the same webhook-id", async () => {
    receiver.answer = (_request, index) => (index === 0 ? "hang" : { status: 200 });
    const { child, exited } = spawnDoomed("mid-send");
    await receiver.waitFor(1, 30_000);
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    const sender = survivor();
    // Still leased by the dead process: nothing to claim yet.
    await sender.drain();
    expect(receiver.received).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await sender.drain();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers["webhook-id"]).toBe(receiver.received[0]!.headers["webhook-id"]);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    const [delivery] = await getDb().sequelize.query<{ status: string; attempts: number }>(
      `SELECT status, attempts FROM webhook_deliveries`,
      { type: QueryTypes.SELECT },
    );
    expect(delivery).toEqual({ status: "delivered", attempts: 2 });
  });
});
