import { readForm } from "~/lib/server/request-body.server";
import { Button, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import {
  type ActionFunctionArgs,
  data,
  Form,
  Link,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useLoaderData,
} from "react-router";
import { getConfig } from "~/lib/server/config.server";
import { centsToDecimal, formatPrice, toCents } from "~/lib/shared/money";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";
import { PaymentError } from "~/payments/errors.server";
import {
  listSimulatedCaptures,
  refundFromDashboard,
  setDisputeFromDashboard,
} from "~/payments/simulator-dashboard.server";
import { requireAdminRole } from "~/web/auth.server";
import { sendSimulatorEvent } from "~/web/payment-webhook.server";
import { redirectWithFlash } from "~/web/session.server";
import mantineStyles from "~/styles/mantine.css?url";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * The payment simulator's provider dashboard: what PayPal's dashboard is to
 * a merchant, when the shop runs without PayPal credentials. An admin (the role: no staff
 * permission covers the provider's own account, as none gives a PayPal login) refunds
 * any part of a capture or opens and resolves a dispute; each sends the event
 * PayPal would send, signed with the simulator's key, to the shop's webhook
 * route, so the order shows it. Plain forms: it works without JavaScript.
 */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: mantineStyles }];

const PAGE = "/payment-simulator/dashboard";

function onlyInSimulatorMode() {
  if (getConfig().paypal) throw new Response("page doesn't exists", { status: 404 });
}

export async function loader({ request }: LoaderFunctionArgs) {
  onlyInSimulatorMode();
  await requireAdminRole(request);
  return data({ captures: await listSimulatedCaptures() });
}

export async function action({ request }: ActionFunctionArgs) {
  onlyInSimulatorMode();
  await requireAdminRole(request);
  const form = await readForm(request);
  const captureId = String(form.get("captureId") ?? "");
  const intent = form.get("intent");
  try {
    let event;
    if (intent === "refund") {
      let cents: number;
      try {
        cents = toCents(String(form.get("amount") ?? "").trim());
      } catch {
        return redirectWithFlash(request, PAGE, { type: "error", message: "Enter an amount such as 4.95" });
      }
      event = await refundFromDashboard(captureId, cents);
    } else if (intent === "open-dispute" || intent === "resolve-dispute") {
      event = await setDisputeFromDashboard(captureId, intent === "open-dispute" ? "open" : "resolved");
    } else {
      return redirectWithFlash(request, PAGE, { type: "error", message: "Unknown action" });
    }
    const sent = await sendSimulatorEvent(event);
    return redirectWithFlash(request, PAGE, {
      type: sent.status === 200 ? "success" : "error",
      message: `${event.event_type} sent to the shop: ${sent.message}`,
    });
  } catch (error) {
    if (error instanceof PaymentError) {
      return redirectWithFlash(request, PAGE, { type: "error", message: error.message });
    }
    throw error;
  }
}

export const meta: MetaFunction = () => [{ title: "Payment simulator · provider dashboard" }];

export default function SimulatorDashboard() {
  const { captures } = useLoaderData<typeof loader>();
  return (
    <main style={{ maxWidth: "68rem", margin: "0 auto", padding: "1rem" }}>
      <Stack gap="sm">
        <Title order={1} size="h3">
          Payment simulator: provider dashboard
        </Title>
        <Text size="sm" c="dimmed">
          What the payment provider&apos;s own dashboard does, without PayPal: each action sends the shop the
          webhook PayPal would send. <Link to="/admin/orders">Back to the orders</Link>
        </Text>
        {captures.length === 0 ? <Text>No captures yet.</Text> : null}
        <ul
          className="simulator-captures"
          data-testid="simulator-captures"
          style={{ listStyle: "none", padding: 0 }}
        >
          {captures.map((capture) => {
            const left = capture.amountCents - capture.refundedCents;
            return (
              <li
                key={capture.captureId}
                data-testid={`capture-${capture.orderId}`}
                style={{
                  border: "1px solid #dee2e6",
                  borderRadius: 8,
                  padding: "0.75rem",
                  marginBottom: "0.75rem",
                }}
              >
                <Stack gap="xs">
                  <Group justify="space-between" gap="xs">
                    <Text fw={600} style={{ overflowWrap: "anywhere" }}>
                      Capture {capture.captureId}
                    </Text>
                    {capture.disputeStatus ? (
                      <Text fw={600} c={capture.disputeStatus === "open" ? "red.9" : undefined}>
                        Dispute {capture.disputeStatus}
                      </Text>
                    ) : null}
                  </Group>
                  <Text size="sm">
                    Order{" "}
                    <Link to={`/admin/orders/${capture.orderId}`}>
                      {capture.orderId.slice(0, 8).toUpperCase()}
                    </Link>
                    {" · "}captured {formatPrice(centsToDecimal(capture.amountCents))}
                    {" · "}refunded {formatPrice(centsToDecimal(capture.refundedCents))}
                  </Text>
                  <Group gap="sm" align="flex-end">
                    {left > 0 ? (
                      <Form method="post" aria-label={`Refund capture ${capture.captureId}`}>
                        <input type="hidden" name="captureId" value={capture.captureId} />
                        <Group gap="xs" wrap="nowrap" align="flex-end">
                          <TextInput
                            name="amount"
                            label="Amount to refund"
                            defaultValue={centsToDecimal(left)}
                            inputMode="decimal"
                            w={130}
                          />
                          <Button type="submit" name="intent" value="refund">
                            Refund
                          </Button>
                        </Group>
                      </Form>
                    ) : (
                      <Text size="sm">Fully refunded</Text>
                    )}
                    <Form method="post">
                      <input type="hidden" name="captureId" value={capture.captureId} />
                      {capture.disputeStatus === "open" ? (
                        <Button type="submit" name="intent" value="resolve-dispute" variant="default">
                          Resolve dispute
                        </Button>
                      ) : (
                        <Button
                          type="submit"
                          name="intent"
                          value="open-dispute"
                          variant="default"
                          color="red"
                        >
                          Open dispute
                        </Button>
                      )}
                    </Form>
                  </Group>
                </Stack>
              </li>
            );
          })}
        </ul>
      </Stack>
    </main>
  );
}
