import { readForm } from "~/lib/server/request-body.server";
import { Button, NativeSelect, Stack, Text, TextInput } from "@mantine/core";
import {
  type ActionFunctionArgs,
  data,
  Form,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
} from "react-router";
import { UrlDialog } from "~/components/admin/UrlDialog";
import { OrderDetails } from "~/components/OrderDetails";
import { withImageSizes } from "~/services/images.server";
import { ADMIN_ORDER_STATUSES, ORDER_STATUS_LABELS } from "~/lib/shared/order-options";
import { CARRIERS, TRACKING_NUMBER_MAX } from "~/lib/shared/tracking";
import { requireArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { AuditHistory } from "~/components/admin/AuditHistory";
import { OrderReturns } from "~/components/admin/OrderReturns";
import { listReturnsForOrder } from "~/services/returns.server";
import { historyOf } from "~/services/audit.server";
import { VERSION_CONFLICT_MESSAGE } from "~/lib/shared/audit";
import { isAppError } from "~/lib/server/errors.server";
import { runOrRefuse, redirectWithRefusal } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import { getOrderDetails } from "~/services/orders.server";
import {
  ORDER_STATUS_UPDATED,
  SHIPPED_WITHOUT_TRACKING,
  updateOrderStatus,
} from "~/services/order-status.server";
import adminStyles from "~/styles/admin.css?url";
import urlDialogStyles from "~/styles/url-dialog.css?url";
import auditStyles from "~/styles/audit.css?url";
import returnStyles from "~/styles/admin-returns.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

// The order table and details styles (orders.css) come with the parent route, admin.orders.
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: adminStyles },
  { rel: "stylesheet", href: urlDialogStyles },
  { rel: "stylesheet", href: auditStyles },
  { rel: "stylesheet", href: returnStyles },
];

/** Back to the list with its filter and page. */
function listUrl(url: URL): string {
  return `/admin/orders${url.search}`;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireArea(request, "orders");
  try {
    const found = await getOrderDetails(params.orderId ?? "");
    const order = { ...found, cartItems: await withImageSizes(found.cartItems) };
    const [history, returns] = await Promise.all([
      historyOf("order", order._id),
      listReturnsForOrder(order._id),
    ]);
    return data({ order, history, returns });
  } catch (error) {
    if (!isAppError(error) || error.status !== 404) throw error;
    return redirectWithFlash(request, listUrl(new URL(request.url)), {
      type: "error",
      message: error.message,
    });
  }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const by = auditByOf(await requireArea(request, "orders"), context);
  const url = new URL(request.url);
  const formData = await readForm(request);
  return runOrRefuse(
    async () => {
      const order = await updateOrderStatus(params.orderId ?? "", Object.fromEntries(formData), by);
      // Tracking is optional, like Shopify's: a parcel shipped without it is allowed, and the admin is reminded.
      const unTracked = order.orderStatus === "inShipping" && !order.trackingNumber;
      return redirectWithFlash(request, `${url.pathname}${url.search}`, {
        type: unTracked ? "info" : "success",
        message: unTracked ? `${ORDER_STATUS_UPDATED} ${SHIPPED_WITHOUT_TRACKING}` : ORDER_STATUS_UPDATED,
      });
    },
    (error) => {
      if (error.status === 404) return redirectWithRefusal(request, listUrl(url), error);
      const fields = error.fieldErrors ?? {};
      const trackingError = fields.trackingNumber?.[0];
      const carrierError = fields.carrier?.[0];
      const statusError =
        fields.orderStatus?.[0] ?? (trackingError || carrierError ? undefined : error.message);
      // A stale update keeps the admin's input and the version it was based on until they reload: the
      // page's fresh data must not turn a second click into an overwrite of what they have not seen.
      const sent =
        error.message === VERSION_CONFLICT_MESSAGE
          ? {
              orderStatus: String(formData.get("orderStatus") ?? ""),
              carrier: String(formData.get("carrier") ?? ""),
              trackingNumber: String(formData.get("trackingNumber") ?? ""),
              version: String(formData.get("version") ?? ""),
            }
          : undefined;
      return data(
        { error: statusError, trackingError, carrierError, ...(sent ? { sent } : {}) },
        { status: error.status },
      );
    },
  );
}

export const meta: MetaFunction = () => [{ title: "Order details · ECommerce Shopping" }];

export default function AdminOrderDetails() {
  const { order, history, returns } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const navigation = useNavigation();
  const selectable = (ADMIN_ORDER_STATUSES as readonly string[]).includes(order.orderStatus);
  const stale = actionData?.error === VERSION_CONFLICT_MESSAGE;
  const sent = actionData && "sent" in actionData ? actionData.sent : undefined;
  const chosen = sent?.orderStatus || (selectable ? order.orderStatus : "");
  const basedOn = sent?.version || String(order.version);
  return (
    <UrlDialog title="Order Details" closeTo={`/admin/orders${location.search}`} size="lg">
      <OrderDetails order={order} customerName={order.userName}>
        {order.disputeStatus ? (
          <Text
            role={order.disputeStatus === "open" ? "alert" : undefined}
            c={order.disputeStatus === "open" ? "red.9" : "dimmed"}
            data-testid="order-dispute"
          >
            {order.disputeStatus === "open"
              ? "Payment dispute open at the provider: refunds and return receipts wait until it is resolved."
              : "A payment dispute on this order was resolved."}
          </Text>
        ) : null}
        <Form method="post" className="order-status-form" key={`${order.orderUpdateDate} ${chosen}`}>
          <Stack gap="sm">
            <input type="hidden" name="version" value={basedOn} />
            <NativeSelect
              name="orderStatus"
              label="Order Status"
              defaultValue={chosen}
              error={
                actionData?.error ? (
                  <>
                    {actionData.error}
                    {stale ? (
                      <>
                        {" "}
                        <a href={`${location.pathname}${location.search}`} data-testid="order-reload">
                          Reload the order
                        </a>
                      </>
                    ) : null}
                  </>
                ) : undefined
              }
              data={[
                ...(selectable ? [] : [{ value: "", label: "Choose a status" }]),
                ...ADMIN_ORDER_STATUSES.map((value) => ({
                  value,
                  label: ORDER_STATUS_LABELS[value] ?? value,
                })),
              ]}
            />
            <NativeSelect
              name="carrier"
              label="Carrier"
              defaultValue={sent ? sent.carrier : (order.carrier ?? "")}
              error={actionData?.carrierError}
              data={[
                { value: "", label: "No carrier" },
                ...CARRIERS.map((value) => ({ value, label: value })),
              ]}
            />
            <TextInput
              name="trackingNumber"
              label="Tracking number"
              description="When the order ships: the customer sees it in the order and in the shipping mail"
              defaultValue={sent ? sent.trackingNumber : (order.trackingNumber ?? "")}
              maxLength={TRACKING_NUMBER_MAX}
              error={actionData?.trackingError}
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
        <OrderReturns returns={returns} refundedAmount={order.refundedAmount} />
        <AuditHistory entries={history} fullLogHref={`/admin/audit?entity=order&entityId=${order._id}`} />
      </OrderDetails>
    </UrlDialog>
  );
}
