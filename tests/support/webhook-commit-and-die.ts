/**
 * A shop process that dies at the worst moments of a webhook's life (SIGKILL,
 * no cleanup). Run by tests/integration/webhooks-crash.test.ts with
 * DATABASE_URL set to the test's database; argv: the moment.
 * - `after-commit`: a product is created (its event committed with it) and
 *   the process dies before any sender ran.
 * - `mid-send`: a product is created and a sender (lease 1 s) starts sending
 *   its event; the test's receiver kills this process when the request arrives.
 */
import { createProduct } from "../../app/services/product-writer.server";
import { WebhookSender } from "../../app/services/webhooks/sender.server";

const moment = process.argv[2];
if (moment !== "after-commit" && moment !== "mid-send") {
  throw new Error("Usage: webhook-commit-and-die.ts after-commit|mid-send");
}
await createProduct({
  title: `Crash tee ${moment}`,
  description: "Made by a process about to die.",
  category: "men",
  brand: "nike",
  price: "20.00",
  totalStock: 5,
  image: "/images/products/test.svg",
});
if (moment === "after-commit") process.kill(process.pid, "SIGKILL");
const sender = new WebhookSender({
  guard: { allowHttp: true, allowPrivate: true },
  leaseMs: 1_000,
  listen: false,
});
await sender.pump();
// The receiver answers never; the test kills this process while the request is open.
await new Promise(() => {});
