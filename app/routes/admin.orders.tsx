import { Button, Group, NativeSelect, Text, Title } from "@mantine/core";
import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Outlet, useLoaderData, useSubmit } from "@remix-run/react";
import { Pagination, withParams } from "~/components/admin/Pagination";
import { useHydrated } from "~/lib/shared/use-hydrated";
import { OrderTable } from "~/components/OrderTable";
import { ORDER_STATUSES as ALL_ORDER_STATUSES, ORDER_STATUS_LABELS } from "~/lib/shared/order-options";
import { requireAdmin } from "~/web/auth.server";
import { parsePaging } from "~/lib/server/paging.server";
import { PAYMENT_STATUSES, paymentStatusLabel } from "~/lib/shared/order-options";
import { listOrders, ORDERS_PAGING, parsePaymentFilter, parseStatusFilter } from "~/services/orders.server";
import adminStyles from "~/styles/admin.css";
import orderStyles from "~/styles/orders.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: adminStyles },
  { rel: "stylesheet", href: orderStyles },
];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const paging = parsePaging(params, ORDERS_PAGING, { lenient: true });
  const status = parseStatusFilter(params.get("status"), { lenient: true });
  const paymentStatus = parsePaymentFilter(params.get("payment"));
  const { orders, pagination } = await listOrders({ ...paging, status, paymentStatus });
  // The table shows six fields: send only those.
  const rows = orders.map(({ _id, orderDate, orderStatus, paymentStatus, totalAmount, userName }) => ({
    _id,
    orderDate,
    orderStatus,
    paymentStatus,
    totalAmount,
    customerName: userName,
  }));
  return json({ orders: rows, pagination, status, paymentStatus });
}

export const meta: MetaFunction = () => [{ title: "Admin orders · ECommerce Shopping" }];

export default function AdminOrders() {
  const { orders, pagination, status, paymentStatus } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const submit = useSubmit();
  const list = new URLSearchParams();
  if (status) list.set("status", status);
  if (paymentStatus) list.set("payment", paymentStatus);
  if (pagination.page > 1) list.set("page", String(pagination.page));
  const search = list.toString();

  return (
    <section className="admin-page">
      <div className="admin-card">
        <Group justify="space-between" align="end" wrap="wrap" gap="sm" mb="md">
          <Title order={1} size="h3">
            All Orders
          </Title>
          <Form method="get" action="/admin/orders" className="admin-filter">
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
            {hydrated ? null : (
              <Button type="submit" variant="default">
                Filter
              </Button>
            )}
          </Form>
        </Group>
        <Text size="sm" c="dimmed" mb="sm">
          {pagination.total} order{pagination.total === 1 ? "" : "s"}
          {status ? ` with status ${status}` : ""}
          {paymentStatus ? ` · ${paymentStatusLabel(paymentStatus)}` : ""}
        </Text>
        <OrderTable
          showCustomer
          orders={orders}
          detailsHref={(id) => `/admin/orders/${id}${search ? `?${search}` : ""}`}
          emptyText={status || paymentStatus ? "No orders with this status." : "No orders yet."}
        />
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
