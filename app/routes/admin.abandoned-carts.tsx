import { Button, Text, TextInput, Title } from "@mantine/core";
import {
  data,
  Form,
  Link,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useLoaderData,
} from "react-router";
import { RECOVERY_WINDOW_DAYS } from "~/lib/shared/abandoned-carts";
import { auditTimeText } from "~/lib/shared/audit";
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
import orderStyles from "~/styles/orders.css?url";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: adminStyles },
  { rel: "stylesheet", href: auditStyles },
  // The orders' table, which turns each row into a labelled block on a phone.
  { rel: "stylesheet", href: orderStyles },
];

const PAGE = "/admin/abandoned-carts";

/** Sent by the loader: the shared module also holds the consent's zod schema, which the page's bundle would carry. */
const explained = { recoveryWindowDays: RECOVERY_WINDOW_DAYS };

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
      return data({ period, carts: await listAbandonedCarts(period), error: null, ...explained });
    },
    async (error) => {
      const period = reportPeriodOf({});
      return data(
        { period, carts: await listAbandonedCarts(period), error: error.message, ...explained },
        { status: error.status },
      );
    },
  );
}

export const meta: MetaFunction = () => [{ title: "Abandoned carts · ECommerce Shopping" }];

export default function AdminAbandonedCarts() {
  const { period, carts, error, recoveryWindowDays } = useLoaderData<typeof loader>();
  const recovered = carts.filter((cart) => cart.recoveredOrderId).length;
  return (
    <section className="admin-page">
      <div className="admin-card">
        <Title order={1} size="h3" mb="xs">
          Abandoned carts
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          Carts whose owners got a reminder mail, by the day of the first mail. An order counts as recovered
          when it is paid from the cart the mail&apos;s link filled, within {recoveryWindowDays} days after
          the link was opened.
        </Text>
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
          {carts.length === 0
            ? "No cart was mailed on these days."
            : `${carts.length} cart${carts.length === 1 ? "" : "s"} mailed from ${period.from} to ${period.to}, ${recovered} recovered`}
        </Text>
        {carts.length === 0 ? null : (
          <div className="order-table__scroll">
            <table className="order-table abandoned-carts" data-testid="abandoned-carts-table">
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Items</th>
                  <th scope="col">Value</th>
                  <th scope="col">Last activity</th>
                  <th scope="col">Mails sent</th>
                  <th scope="col">Link opened</th>
                  <th scope="col">Recovered order</th>
                </tr>
              </thead>
              <tbody>
                {carts.map((cart) => (
                  <tr key={cart._id}>
                    <td data-label="Email" className="abandoned-carts__email">
                      {cart.email}
                    </td>
                    <td data-label="Items">
                      <ul className="abandoned-carts__items">
                        {cart.items.map((item) => (
                          <li key={item.variantId}>
                            {/* The quantity never wraps away from its item. */}
                            {`${lineName(item)}\u00a0×\u00a0${item.quantity}`}
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td data-label="Value">{formatPrice(cart.value)}</td>
                    <td data-label="Last activity">
                      <time dateTime={cart.lastActivityAt}>{auditTimeText(cart.lastActivityAt)}</time>
                    </td>
                    <td data-label="Mails sent">{cart.mailsSent}</td>
                    <td data-label="Link opened">
                      {cart.restoredAt ? (
                        <time dateTime={cart.restoredAt}>{auditTimeText(cart.restoredAt)}</time>
                      ) : (
                        "Not opened"
                      )}
                    </td>
                    <td data-label="Recovered order">
                      {cart.recoveredOrderId ? (
                        <Link to={`/admin/orders/${cart.recoveredOrderId}`}>
                          #{shortOrderNumber(cart.recoveredOrderId)}
                        </Link>
                      ) : (
                        "None"
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}
