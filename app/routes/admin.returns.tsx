import { readForm } from "~/lib/server/request-body.server";
import { Button, NativeSelect, Text, Title } from "@mantine/core";
import {
  type ActionFunctionArgs,
  data,
  Form,
  Link,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
  useActionData,
  useLoaderData,
  useNavigation,
  useSubmit,
} from "react-router";
import { Pagination, withParams } from "~/components/admin/Pagination";
import { RETURN_INTENTS, ReturnCard, type ReturnIntent } from "~/components/admin/ReturnCard";
import { parsePaging } from "~/lib/server/paging.server";
import { isAppError } from "~/lib/server/errors.server";
import { formatPrice } from "~/lib/shared/money";
import { shortOrderNumber } from "~/lib/shared/order-options";
import { type ReturnJson, type ReturnStatus, type ReturnType } from "~/lib/shared/returns";
import {
  getReturn,
  listReturns,
  parseReturnStatusFilter,
  parseReturnTypeFilter,
  RETURNS_PAGING,
} from "~/services/returns.server";
import { updateReturn } from "~/services/return-decision.server";
import { listAddressOf } from "~/web/admin-form.server";
import { auditByOf } from "~/web/audit.server";
import { requireArea } from "~/web/auth.server";
import { runOrRefuse } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import adminStyles from "~/styles/admin.css?url";
import returnStyles from "~/styles/admin-returns.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: adminStyles },
  { rel: "stylesheet", href: returnStyles },
];

const PAGE = "/admin/returns";

/** The filter's choices, in the order a return lives through them. */
const STATUS_FILTERS: { value: ReturnStatus; label: string }[] = [
  { value: "requested", label: "Requested" },
  { value: "approved", label: "Approved" },
  { value: "received", label: "Received" },
  { value: "refunded", label: "Refunded" },
  { value: "rejected", label: "Rejected" },
  { value: "shipped", label: "Shipped (exchanges)" },
];

const TYPE_FILTERS: { value: ReturnType; label: string }[] = [
  { value: "refund", label: "Refunds" },
  { value: "exchange", label: "Exchanges" },
];

export const RETURNS_PAGE_TEXT = {
  approved: "Return approved: the customer is emailed how to send it back.",
  rejected: "Return rejected: the customer is emailed.",
  received: "Return received: its stock is back.",
  exchangeReceived: "Exchange received: its stock is back. Ship the new size next.",
  shipped: "New size shipped: the customer is emailed its tracking.",
  refunded: (amount: number) => `Return received and ${formatPrice(amount)} refunded.`,
  unknownIntent: "Choose Approve, Reject, Mark received or Ship.",
} as const;

function isReturnIntent(value: FormDataEntryValue | null): value is ReturnIntent {
  return typeof value === "string" && Object.hasOwn(RETURN_INTENTS, value);
}

function doneMessage(updated: ReturnJson): string {
  if (updated.status === "refunded") return RETURNS_PAGE_TEXT.refunded(updated.refundAmount ?? 0);
  if (updated.status === "approved" || updated.status === "rejected" || updated.status === "shipped")
    return RETURNS_PAGE_TEXT[updated.status];
  if (updated.type === "exchange") return RETURNS_PAGE_TEXT.exchangeReceived;
  // Received but not refunded: its order has no capture to refund (the service logs it).
  return RETURNS_PAGE_TEXT.received;
}

/**
 * A refusal, with the return's order and present status when it exists: a
 * stale move's return may have left the filtered list, and the message then
 * says which return it was and leads to it.
 */
async function refusalOf(returnId: string, error: string) {
  const current = await getReturn(returnId).catch((lookup: unknown) => {
    if (isAppError(lookup) && lookup.status === 404) return null;
    throw lookup;
  });
  return {
    returnId,
    error,
    orderNumber: current ? shortOrderNumber(current.orderId) : null,
    currentStatus: current?.status ?? null,
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "returns");
  const url = new URL(request.url);
  const address = listAddressOf(url);
  if (address !== url.pathname + url.search) throw redirect(address);
  const params = url.searchParams;
  // A hand-edited URL still shows a list: an unknown status means all of them, a bad page the first.
  const status = parseReturnStatusFilter(params.get("status"));
  const type = parseReturnTypeFilter(params.get("type"));
  const paging = parsePaging(params, RETURNS_PAGING, { lenient: true });
  const { returns, pagination } = await listReturns(status, paging, type);
  return data({ returns, pagination, status, type });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const by = auditByOf(await requireArea(request, "returns"), context);
  const url = new URL(request.url);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const returnId = String(formData.get("returnId") ?? "");
  if (!isReturnIntent(intent)) {
    return data(await refusalOf(returnId, RETURNS_PAGE_TEXT.unknownIntent), { status: 400 });
  }
  return runOrRefuse(
    async () => {
      const updated = await updateReturn(
        returnId,
        {
          status: RETURN_INTENTS[intent],
          // An unticked box sends nothing: only receiving asks, and there it means "not the delivery".
          ...(intent === "receive" ? { refundShipping: formData.get("refundShipping") === "on" } : {}),
          ...(intent === "ship"
            ? { trackingNumber: formData.get("trackingNumber"), carrier: formData.get("carrier") }
            : {}),
        },
        by,
      );
      return redirectWithFlash(request, listAddressOf(new URL(PAGE + url.search, url)), {
        type: "success",
        message: doneMessage(updated),
      });
    },
    // The list renders again with the refusal by the return's buttons (a stale move's 409, the
    // provider's 502 after the stock came back), so the admin sees it where they clicked.
    async (error) => data(await refusalOf(returnId, error.message), { status: error.status }),
  );
}

export const meta: MetaFunction = () => [{ title: "Returns · ECommerce Shopping" }];

export default function AdminReturns() {
  const { returns, pagination, status, type } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const list = new URLSearchParams();
  if (status) list.set("status", status);
  if (type) list.set("type", type);
  const pendingId = navigation.formData?.get("returnId");
  const pendingIntent = navigation.formData?.get("intent");
  const shownIds = new Set(returns.map((entry) => entry._id));
  const label = STATUS_FILTERS.find((filter) => filter.value === status)?.label;
  const typeLabel = TYPE_FILTERS.find((filter) => filter.value === type)?.label;

  return (
    <section className="admin-page">
      <div className="admin-card">
        <Title order={1} size="h3" mb="md">
          Returns
        </Title>
        <Form method="get" action={PAGE} className="admin-filter" role="search" key={`${status}-${type}`}>
          <NativeSelect
            name="type"
            label="Refunds or exchanges"
            defaultValue={type ?? ""}
            data={[{ value: "", label: "Both" }, ...TYPE_FILTERS]}
            onChange={(event) => submit(event.currentTarget.form)}
          />
          <NativeSelect
            name="status"
            label="Filter by status"
            defaultValue={status ?? ""}
            data={[{ value: "", label: "All" }, ...STATUS_FILTERS]}
            onChange={(event) => submit(event.currentTarget.form)}
          />
          <Button type="submit" variant="default">
            Filter
          </Button>
        </Form>
        <Text size="sm" c="dimmed" my="sm" data-testid="return-count" aria-live="polite">
          {pagination.total} {typeLabel ? typeLabel.toLowerCase().replace(/s$/, "") : "return"}
          {pagination.total === 1 ? "" : "s"}
          {label ? ` ${label.toLowerCase()}` : ""}
        </Text>
        {refusal && !shownIds.has(refusal.returnId) ? (
          <p className="field-error" role="alert" data-testid="return-error">
            {refusal.orderNumber ? `Return for order ${refusal.orderNumber}: ` : ""}
            {refusal.error}
            {refusal.currentStatus && refusal.currentStatus !== status ? (
              <>
                {" "}
                <Link to={`${PAGE}?status=${refusal.currentStatus}`}>Show it</Link>
              </>
            ) : null}
          </p>
        ) : null}
        {returns.length === 0 ? (
          <p className="return-list__empty">
            {status ? (
              <>
                No returns {label?.toLowerCase()}. <Link to={PAGE}>Show all returns</Link>
              </>
            ) : (
              "No returns yet."
            )}
          </p>
        ) : (
          <div className="return-list">
            {returns.map((entry) => (
              <ReturnCard
                key={entry._id}
                entry={entry}
                error={refusal?.returnId === entry._id ? refusal.error : undefined}
                pendingIntent={
                  pendingId === entry._id && typeof pendingIntent === "string" ? pendingIntent : null
                }
              />
            ))}
          </div>
        )}
        <Pagination
          page={pagination.page}
          pages={pagination.pages}
          label="Return pages"
          hrefFor={(page) => withParams(PAGE, list, { page: page === 1 ? null : page })}
        />
      </div>
    </section>
  );
}
