import { Alert, Anchor, Button, Group, NativeSelect, Text, TextInput, Title } from "@mantine/core";
import {
  data,
  Form,
  Link,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  Outlet,
  useLoaderData,
  useSubmit,
} from "react-router";
import { Pagination, withParams } from "~/components/admin/Pagination";
import { OrderTable, type OrderRowData } from "~/components/OrderTable";
import { ORDER_STATUSES as ALL_ORDER_STATUSES, ORDER_STATUS_LABELS } from "~/lib/shared/order-options";
import { requireArea } from "~/web/auth.server";
import { parsePaging } from "~/lib/server/paging.server";
import { PAYMENT_STATUSES, paymentStatusLabel } from "~/lib/shared/order-options";
import { listOrders, ORDERS_PAGING, parseOrderSearch } from "~/services/order-search.server";
import { ORDER_SEARCH_MAX } from "~/lib/shared/order-options";
import adminStyles from "~/styles/admin.css?url";
import orderStyles from "~/styles/orders.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: adminStyles },
  { rel: "stylesheet", href: orderStyles },
];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "orders");
  const params = new URL(request.url).searchParams;
  const paging = parsePaging(params, ORDERS_PAGING, { lenient: true });
  // Unknown statuses mean "all", as a hand-edited URL should; a bad date or search is said, not guessed.
  const { search, errors } = parseOrderSearch(params, { lenient: true });
  const filters = {
    q: search.q ?? (params.get("q") ?? "").slice(0, ORDER_SEARCH_MAX),
    from: search.from ?? params.get("from") ?? "",
    to: search.to ?? params.get("to") ?? "",
    status: search.status ?? null,
    paymentStatus: search.paymentStatus ?? null,
  };
  if (Object.keys(errors).length) {
    const none: OrderRowData[] = [];
    return data(
      { orders: none, pagination: { ...paging, total: 0, pages: 0 }, filters, errors },
      { status: 400 },
    );
  }
  const { orders, pagination } = await listOrders({ ...paging, ...search });
  // The table shows six fields: send only those.
  const rows = orders.map(({ _id, orderDate, orderStatus, paymentStatus, totalAmount, userName }) => ({
    _id,
    orderDate,
    orderStatus,
    paymentStatus,
    totalAmount,
    customerName: userName,
  }));
  return data({
    orders: rows,
    pagination,
    status: filters.status,
    paymentStatus: filters.paymentStatus,
    filters,
    errors: null,
  });
}

export const meta: MetaFunction = () => [{ title: "Admin orders · ECommerce Shopping" }];

export default function AdminOrders() {
  const { orders, pagination, filters, errors } = useLoaderData<typeof loader>();
  const submit = useSubmit();
  const { status, paymentStatus } = filters;
  const list = new URLSearchParams();
  if (filters.q) list.set("q", filters.q);
  if (status) list.set("status", status);
  if (paymentStatus) list.set("payment", paymentStatus);
  if (filters.from) list.set("from", filters.from);
  if (filters.to) list.set("to", filters.to);
  const filtered = list.toString() !== "";
  // The export takes the API's names: the same filters, every page.
  const exportParams = new URLSearchParams(list);
  exportParams.delete("payment");
  if (paymentStatus) exportParams.set("paymentStatus", paymentStatus);
  const exportQuery = exportParams.toString();
  const exportHref = `/api/admin/orders/export${exportQuery ? `?${exportQuery}` : ""}`;
  if (pagination.page > 1) list.set("page", String(pagination.page));
  const search = list.toString();
  const problems = errors ? Object.values(errors).flat() : [];

  return (
    <section className="admin-page">
      <div className="admin-card">
        <Group justify="space-between" align="end" wrap="wrap" gap="sm" mb="md">
          <Title order={1} size="h3">
            All Orders
          </Title>
          <Group gap="md">
            <Anchor component={Link} to="/admin/abandoned-carts" size="sm">
              Abandoned carts
            </Anchor>
            {errors ? null : (
              <Anchor href={exportHref} download size="sm">
                Export CSV
              </Anchor>
            )}
          </Group>
        </Group>
        <Form
          method="get"
          action="/admin/orders"
          className="admin-filter"
          role="search"
          style={{ flexWrap: "wrap" }}
        >
          <TextInput
            name="q"
            type="search"
            label="Search orders"
            description="Order number or id, customer email or name"
            defaultValue={filters.q}
            key={`q-${filters.q}`}
            maxLength={ORDER_SEARCH_MAX}
            error={errors?.q?.[0]}
          />
          <TextInput
            name="from"
            type="date"
            label="From"
            defaultValue={filters.from}
            key={`from-${filters.from}`}
            error={errors?.from?.[0]}
          />
          <TextInput
            name="to"
            type="date"
            label="To"
            defaultValue={filters.to}
            key={`to-${filters.to}`}
            error={errors?.to?.[0]}
          />
          <NativeSelect
            name="status"
            label="Filter by status"
            defaultValue={status ?? ""}
            key={status ?? ""}
            data={[
              { value: "", label: "All statuses" },
              ...ALL_ORDER_STATUSES.map((value) => ({ value, label: ORDER_STATUS_LABELS[value] ?? value })),
            ]}
            onChange={(event) => submit(event.currentTarget.form)}
          />
          <NativeSelect
            name="payment"
            label="Filter by payment"
            defaultValue={paymentStatus ?? ""}
            key={`payment-${paymentStatus ?? ""}`}
            data={[
              { value: "", label: "All payments" },
              ...PAYMENT_STATUSES.map((value) => ({ value, label: paymentStatusLabel(value) })),
            ]}
            onChange={(event) => submit(event.currentTarget.form)}
          />
          <Button type="submit" variant="default">
            Filter
          </Button>
        </Form>
        {problems.length ? (
          <Alert color="red" title="These filters cannot be used" my="sm" role="alert">
            {problems.map((problem) => (
              <Text key={problem} size="sm">
                {problem}
              </Text>
            ))}
            <Anchor component={Link} to="/admin/orders" size="sm">
              Clear filters
            </Anchor>
          </Alert>
        ) : (
          <>
            <Text size="sm" c="dimmed" my="sm" data-testid="order-count">
              {pagination.total} order{pagination.total === 1 ? "" : "s"}
              {filtered ? " found" : ""}
              {status ? ` with status ${status}` : ""}
              {paymentStatus ? ` · ${paymentStatusLabel(paymentStatus)}` : ""}
            </Text>
            {orders.length === 0 && filtered ? (
              <p className="order-table__empty">
                No orders match these filters. <Link to="/admin/orders">Clear filters</Link>
              </p>
            ) : (
              <OrderTable
                showCustomer
                orders={orders}
                detailsHref={(id) => `/admin/orders/${id}${search ? `?${search}` : ""}`}
                emptyText="No orders yet."
              />
            )}
          </>
        )}
        <Pagination
          page={pagination.page}
          pages={pagination.pages}
          label="Order pages"
          hrefFor={(page) => withParams("/admin/orders", list, { page: page === 1 ? null : page })}
        />
      </div>
      <Outlet />
    </section>
  );
}
