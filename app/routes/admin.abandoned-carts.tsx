import { Button, Table, Text, TextInput, Title } from "@mantine/core";
import {
  data,
  Form,
  Link,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useLoaderData,
} from "react-router";
import { formatPrice } from "~/lib/shared/money";
import { shortOrderNumber } from "~/lib/shared/order-options";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";
import { lineName } from "~/lib/shared/variants";
import { listAbandonedCarts } from "~/services/abandoned-carts.server";
import { runOrRefuse } from "~/web/form-action.server";
import { reportPeriodOf } from "~/services/reports.server";
import { requireArea } from "~/web/auth.server";
import adminStyles from "~/styles/admin.css?url";
import auditStyles from "~/styles/audit.css?url";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: adminStyles },
  { rel: "stylesheet", href: auditStyles },
];

const PAGE = "/admin/abandoned-carts";

/**
 * The carts that got an abandoned-cart mail on the days chosen (the API's `GET /api/admin/abandoned-carts`,
 * read by the same service): who, what, the mails, whether the restore link was opened and the order it
 * brought. The days are a GET form, so the period is the URL's.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "orders");
  const params = new URL(request.url).searchParams;
  const query = { from: params.get("from"), to: params.get("to") };
  return runOrRefuse(
    async () => {
      const period = reportPeriodOf(query);
      return data({ period, carts: await listAbandonedCarts(period), error: null });
    },
    async (error) => {
      const period = reportPeriodOf({});
      return data(
        { period, carts: await listAbandonedCarts(period), error: error.message },
        { status: error.status },
      );
    },
  );
}

export const meta: MetaFunction = () => [{ title: "Abandoned carts · ECommerce Shopping" }];

export default function AdminAbandonedCarts() {
  const { period, carts, error } = useLoaderData<typeof loader>();
  const recovered = carts.filter((cart) => cart.recoveredOrderId).length;
  return (
    <section className="admin-page">
      <div className="admin-card">
        <Title order={1} size="h3" mb="md">
          Abandoned carts
        </Title>
        <Form method="get" action={PAGE} className="audit-filters" key={`${period.from}-${period.to}`}>
          <TextInput name="from" label="From" type="date" defaultValue={period.from} />
          <TextInput name="to" label="To" type="date" defaultValue={period.to} />
          <Button type="submit" variant="default">
            Show
          </Button>
        </Form>
        {error ? (
          <Text className="field-error" role="alert">
            {error}
          </Text>
        ) : null}
        <Text size="sm" c="dimmed" mb="sm" aria-live="polite">
          {carts.length} cart{carts.length === 1 ? "" : "s"} mailed from {period.from} to {period.to},{" "}
          {recovered} recovered
        </Text>
        <div className="audit-table-wrap">
          <Table striped withTableBorder data-testid="abandoned-carts-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Email</Table.Th>
                <Table.Th>Items</Table.Th>
                <Table.Th>Value</Table.Th>
                <Table.Th>Last activity</Table.Th>
                <Table.Th>Mails</Table.Th>
                <Table.Th>Restored</Table.Th>
                <Table.Th>Order</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {carts.map((cart) => (
                <Table.Tr key={cart._id}>
                  <Table.Td>{cart.email}</Table.Td>
                  <Table.Td>
                    {cart.items.map((item) => `${lineName(item)} × ${item.quantity}`).join(", ")}
                  </Table.Td>
                  <Table.Td>{formatPrice(cart.value)}</Table.Td>
                  <Table.Td>{new Date(cart.lastActivityAt).toUTCString()}</Table.Td>
                  <Table.Td>{cart.mailsSent}</Table.Td>
                  <Table.Td>{cart.restoredAt ? new Date(cart.restoredAt).toUTCString() : "no"}</Table.Td>
                  <Table.Td>
                    {cart.recoveredOrderId ? (
                      <Link to={`/admin/orders/${cart.recoveredOrderId}`}>
                        #{shortOrderNumber(cart.recoveredOrderId)}
                      </Link>
                    ) : (
                      "—"
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      </div>
    </section>
  );
}
