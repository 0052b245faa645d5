import { readForm } from "~/lib/server/request-body.server";
import { Alert, Button, Card, Group, Stack, Table, Text, Title } from "@mantine/core";
import {
  type ActionFunctionArgs,
  data,
  Form,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
  useLoaderData,
  useNavigation,
} from "react-router";
import { ownerOfPageBuyer, requireBuyer, type PageBuyer } from "~/web/checkout-buyer.server";
import { ownsOrder } from "~/services/orders.server";
import { centsToDecimal, formatPrice } from "~/lib/shared/money";
import { isUuid } from "~/lib/shared/uuid";
import {
  answerSimulatedPayment,
  getSimulatedPayment,
  type SimulatedPayment,
} from "~/payments/simulator.server";
import mantineStyles from "~/styles/mantine.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * The payment simulator's approval page: what PayPal's approval page is when
 * the shop runs without PayPal credentials. Plain forms, so it works without
 * JavaScript. Only the shopper whose order it pays may see or answer it.
 */

// Built from Mantine components: their styles (the root links only Mantine's base).
export const links: LinksFunction = () => [{ rel: "stylesheet", href: mantineStyles }];

const ANSWERS = ["approve", "decline", "cancel"] as const;
type Answer = (typeof ANSWERS)[number];

function notFound(): never {
  throw new Response("page doesn't exists", { status: 404 });
}

/**
 * The payment, if it pays an order of the buyer (a guest's: of the cart their cookie names); another
 * buyer's is as unknown as a made-up token.
 */
async function requireOwnPayment(token: string | undefined, buyer: PageBuyer): Promise<SimulatedPayment> {
  const payment = token ? await getSimulatedPayment(token) : null;
  if (!payment || !isUuid(payment.orderId)) notFound();
  if (!(await ownsOrder(ownerOfPageBuyer(buyer), payment.orderId))) notFound();
  return payment;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const payment = await requireOwnPayment(params.token, await requireBuyer(request));
  return data({ payment }, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const payment = await requireOwnPayment(params.token, await requireBuyer(request));
  const answer = (await readForm(request)).get("intent");
  if (!ANSWERS.includes(answer as Answer)) {
    throw new Response("Choose Approve, Decline or Cancel", { status: 400 });
  }
  const target = await answerSimulatedPayment(payment.providerOrderId, answer as Answer);
  if (!target) notFound();
  return redirect(target);
}

export const meta: MetaFunction = () => [
  { title: "Payment simulator — no money moves · ECommerce Shopping" },
  { name: "robots", content: "noindex" },
];

export default function PaymentSimulatorPage() {
  const { payment } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const completed = payment.status === "COMPLETED";
  return (
    <main
      id="main-content"
      style={{ minHeight: "100vh", background: "var(--mantine-color-gray-0)", padding: "2rem 1rem" }}
    >
      <Card withBorder radius="md" padding="xl" maw={640} mx="auto" shadow="sm">
        <Stack gap="md">
          <Title order={1} size="h2">
            Payment simulator — no money moves
          </Title>
          <Text size="sm" c="dimmed">
            This shop runs without PayPal credentials, so this page stands in for PayPal. Approve pays the
            order (nothing is charged), Decline makes the payment fail as a declined card would, and Cancel
            goes back to the shop without paying.
          </Text>
          {payment.status === "DECLINED" ? (
            <Alert color="red" title="Your last answer was Decline">
              Approve to pay with another (simulated) payment method.
            </Alert>
          ) : null}
          {completed ? (
            <Alert color="green" title="This payment is complete">
              It was captured already; nothing more will be charged.
            </Alert>
          ) : null}

          <Table aria-label="Items" striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Item</Table.Th>
                <Table.Th ta="right">Quantity</Table.Th>
                <Table.Th ta="right">Price</Table.Th>
                <Table.Th ta="right">Total</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {payment.items.map((item, index) => (
                <Table.Tr key={`${item.sku ?? item.name}-${index}`}>
                  <Table.Td>{item.name}</Table.Td>
                  <Table.Td ta="right">{item.quantity}</Table.Td>
                  <Table.Td ta="right">{formatPrice(centsToDecimal(item.unitAmountCents))}</Table.Td>
                  <Table.Td ta="right">
                    {formatPrice(centsToDecimal(item.unitAmountCents * item.quantity))}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {/* PayPal's breakdown: what the amount is made of. */}
          <dl className="simulator-breakdown" data-testid="simulator-breakdown">
            <Group justify="space-between">
              <dt>Item total</dt>
              <dd data-testid="simulator-item-total">
                {formatPrice(centsToDecimal(payment.itemTotalCents))}
              </dd>
            </Group>
            {payment.discountCents ? (
              <Group justify="space-between">
                <dt>Discount</dt>
                <dd data-testid="simulator-discount">
                  −{formatPrice(centsToDecimal(payment.discountCents))}
                </dd>
              </Group>
            ) : null}
            {payment.shippingCents ? (
              <Group justify="space-between">
                <dt>Shipping</dt>
                <dd data-testid="simulator-shipping">{formatPrice(centsToDecimal(payment.shippingCents))}</dd>
              </Group>
            ) : null}
            {payment.taxTotalCents ? (
              <Group justify="space-between">
                <dt>Tax</dt>
                <dd data-testid="simulator-tax">{formatPrice(centsToDecimal(payment.taxTotalCents))}</dd>
              </Group>
            ) : null}
          </dl>
          <Group justify="space-between">
            <Text fw={700}>Amount to pay</Text>
            <Text fw={700} size="xl" data-testid="simulator-amount">
              {formatPrice(centsToDecimal(payment.amountCents))} {payment.currency}
            </Text>
          </Group>

          <Form method="post">
            <Group gap="sm" grow>
              <Button type="submit" name="intent" value="approve" loading={pending === "approve"}>
                Approve
              </Button>
              {completed ? null : (
                <Button
                  type="submit"
                  name="intent"
                  value="decline"
                  color="red"
                  variant="outline"
                  loading={pending === "decline"}
                >
                  Decline
                </Button>
              )}
              {completed ? null : (
                <Button
                  type="submit"
                  name="intent"
                  value="cancel"
                  variant="default"
                  loading={pending === "cancel"}
                >
                  Cancel
                </Button>
              )}
            </Group>
          </Form>
          <Text size="xs" c="dimmed">
            Simulated order {payment.providerOrderId}
          </Text>
        </Stack>
      </Card>
    </main>
  );
}
