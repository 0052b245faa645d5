import { Button, NativeSelect, Stack, Text } from "@mantine/core";
import {
  json,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { UrlDialog } from "~/components/admin/UrlDialog";
import { OrderDetails } from "~/components/OrderDetails";
import { withImageSizes } from "~/services/images.server";
import { ADMIN_ORDER_STATUSES, ORDER_STATUS_LABELS } from "~/lib/shared/order-options";
import { requireAdmin } from "~/web/auth.server";
import { isAppError } from "~/lib/server/errors.server";
import { runOrRefuse, redirectWithRefusal } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import { getOrderDetails, ORDER_STATUS_UPDATED, updateOrderStatus } from "~/services/orders.server";
import adminStyles from "~/styles/admin.css";
import urlDialogStyles from "~/styles/url-dialog.css";

// The order table and details styles (orders.css) come with the parent route, admin.orders.
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: adminStyles },
  { rel: "stylesheet", href: urlDialogStyles },
];

/** Back to the list with its filter and page. */
function listUrl(url: URL): string {
  return `/admin/orders${url.search}`;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  try {
    const found = await getOrderDetails(params.orderId ?? "");
    const order = { ...found, cartItems: await withImageSizes(found.cartItems) };
    return json({ order });
  } catch (error) {
    if (!isAppError(error) || error.status !== 404) throw error;
    return redirectWithFlash(request, listUrl(new URL(request.url)), {
      type: "error",
      message: error.message,
    });
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const formData = await request.formData();
  return runOrRefuse(
    async () => {
      await updateOrderStatus(params.orderId ?? "", Object.fromEntries(formData));
      return redirectWithFlash(request, `${url.pathname}${url.search}`, {
        type: "success",
        message: ORDER_STATUS_UPDATED,
      });
    },
    (error) => {
      if (error.status === 404) return redirectWithRefusal(request, listUrl(url), error);
      return json({ error: error.fieldErrors?.orderStatus?.[0] ?? error.message }, { status: error.status });
    },
  );
}

export const meta: MetaFunction = () => [{ title: "Order details · ECommerce Shopping" }];

export default function AdminOrderDetails() {
  const { order } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const navigation = useNavigation();
  const selectable = (ADMIN_ORDER_STATUSES as readonly string[]).includes(order.orderStatus);
  return (
    <UrlDialog title="Order Details" closeTo={`/admin/orders${location.search}`} size="lg">
      <OrderDetails order={order} customerName={order.userName}>
        <Form method="post" className="order-status-form" key={order.orderUpdateDate}>
          <Stack gap="sm">
            <NativeSelect
              name="orderStatus"
              label="Order Status"
              defaultValue={selectable ? order.orderStatus : ""}
              error={actionData?.error}
              data={[
                ...(selectable ? [] : [{ value: "", label: "Choose a status" }]),
                ...ADMIN_ORDER_STATUSES.map((value) => ({
                  value,
                  label: ORDER_STATUS_LABELS[value] ?? value,
                })),
              ]}
            />
            <Button type="submit" loading={navigation.state === "submitting"}>
              Update Order Status
            </Button>
            {order.orderUpdateDate !== order.orderDate ? (
              <Text size="xs" c="dimmed">
                Last updated {new Date(order.orderUpdateDate).toISOString().replace("T", " ").slice(0, 16)}{" "}
                UTC
              </Text>
            ) : null}
          </Stack>
        </Form>
      </OrderDetails>
    </UrlDialog>
  );
}
