/**
 * A shop process that dies at the worst moment of a return's refund: it
 * marks the return received (stock back, refund due), the provider refunds,
 * and the process is killed (SIGKILL, no cleanup) before the refund is
 * recorded. Run by tests/integration/returns.test.ts with DATABASE_URL set to
 * the test's database; argv: the return's id.
 */
import { setPaymentGateway } from "../../app/payments/index.server";
import { createSimulatorGateway } from "../../app/payments/simulator.server";
import { updateReturn } from "../../app/services/return-decision.server";

const returnId = process.argv[2];
if (!returnId) throw new Error("Usage: receive-return-and-die.ts <return id>");
const simulator = createSimulatorGateway();
setPaymentGateway({
  ...simulator,
  async refundCapture(captureId, amountCents, requestId) {
    await simulator.refundCapture(captureId, amountCents, requestId);
    process.kill(process.pid, "SIGKILL");
    throw new Error("unreachable: the process is gone");
  },
});
await updateReturn(returnId, { status: "received" });
throw new Error("unreachable: the refund never returns");
