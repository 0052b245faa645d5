import { Button, Code, Text, Title } from "@mantine/core";
import {
  type ActionFunctionArgs,
  data,
  Form,
  Link,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useLoaderData,
} from "react-router";
import { AdminRecordsPage, AdminTable, adminPageLinks } from "~/components/admin/AdminRecordsPage";
import { WebhookEndpointFields, webhookFormValues } from "~/components/admin/WebhookEndpointEditor";
import { utcText } from "~/lib/shared/admin-form";
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_TEXT,
  type WebhookAttemptJson,
  type WebhookEndpointJson,
} from "~/lib/shared/webhooks";
import {
  countPendingDeliveries,
  listWebhookAttempts,
  retryWebhookDelivery,
} from "~/services/webhooks/deliveries.server";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
} from "~/services/webhooks/endpoints.server";
import { openedRecords, readOrBack, recordAction, type AdminRecords } from "~/web/admin-form.server";
import { requireArea } from "~/web/auth.server";
import { submitOrRedirect } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => adminPageLinks;

const PAGE = "/admin/webhooks";

/** The page showing one endpoint's deliveries. */
const deliveriesOf = (id: string) => `${PAGE}?endpoint=${id}`;

/** The answer to "Add": the page shows the new endpoint's signing secret this once (never stored to be read again). */
interface CreatedReply {
  created: { _id: string; url: string; secret: string };
}

const endpoints: AdminRecords<WebhookEndpointJson, WebhookEndpointJson & { secret: string }, CreatedReply> = {
  page: PAGE,
  text: WEBHOOK_TEXT,
  repeated: ["events"],
  /** The form as the service reads it: an unticked "active" sends nothing, which here means "off". */
  inputOf: (sent) => ({ ...sent.texts(["url"]), events: sent.list("events"), active: sent.box("active") }),
  get: getWebhookEndpoint,
  create: createWebhookEndpoint,
  update: updateWebhookEndpoint,
  remove: deleteWebhookEndpoint,
  /** The form's answer shows the new endpoint's signing secret, the only time it is shown. */
  afterCreate: async (_request, created) =>
    data<CreatedReply>({ created: { _id: created._id, url: created.url, secret: created.secret } }),
  intents: {
    retry: (request, formData) => {
      const id = String(formData.get("id") ?? "");
      return submitOrRedirect(request, deliveriesOf(id), async () => {
        await retryWebhookDelivery(id, formData.get("deliveryId"));
        return redirectWithFlash(request, deliveriesOf(id), {
          type: "success",
          message: WEBHOOK_TEXT.retried,
        });
      });
    },
  },
};

export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "webhooks");
  const opened = await openedRecords(request, endpoints);
  const endpointId = new URL(request.url).searchParams.get("endpoint");
  const shown = endpointId
    ? await readOrBack(request, PAGE, async () => {
        const endpoint = await getWebhookEndpoint(endpointId);
        return {
          endpoint,
          attempts: await listWebhookAttempts(endpoint._id),
          pending: await countPendingDeliveries(endpoint._id),
        };
      })
    : null;
  return { endpoints: await listWebhookEndpoints(), ...opened, shown };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return recordAction({ request, context }, await requireArea(request, "webhooks"), endpoints);
}

export const meta: MetaFunction = () => [{ title: "Webhooks · ECommerce Shopping" }];

type Shown = {
  endpoint: WebhookEndpointJson;
  attempts: WebhookAttemptJson[];
  pending: number;
};

/** The endpoint's state in words (dark text: a light badge's contrast is too low). */
function StatusBadge({ endpoint }: { endpoint: WebhookEndpointJson }) {
  if (endpoint.active) return <Text fw={600}>Active</Text>;
  return (
    <Text fw={600} c={endpoint.disabledReason ? "red.9" : undefined}>
      {endpoint.disabledReason ? "Switched off" : "Off"}
    </Text>
  );
}

/** The new endpoint's signing secret, in the answer to its form: the only time it is shown. */
function CreatedSecret({ created }: { created: CreatedReply["created"] }) {
  return (
    <div className="admin-card webhook-secret" role="status">
      <Text fw={600}>{WEBHOOK_TEXT.created}</Text>
      <Text size="sm" mb="xs" style={{ overflowWrap: "anywhere" }}>
        {created.url}
      </Text>
      <Code block data-testid="webhook-secret" mb="xs">
        {created.secret}
      </Code>
      <Link to={deliveriesOf(created._id)} className="admin-btn" aria-label={`Deliveries to ${created.url}`}>
        Deliveries
      </Link>
    </div>
  );
}

function Deliveries({ shown }: { shown: Shown }) {
  const { endpoint, attempts, pending } = shown;
  return (
    <div className="admin-card" data-testid="webhook-deliveries">
      <Title order={2} size="h4" mb="xs">
        Deliveries to {endpoint.url}
      </Title>
      {!endpoint.active && endpoint.disabledReason ? (
        <Text c="red.9" mb="xs" role="alert">
          {endpoint.disabledReason}. Its events are kept: switch it on again (Edit) when the receiver works.
        </Text>
      ) : null}
      <Text size="sm" c="dimmed" mb="sm">
        {pending} waiting to be sent. The last 100 attempts, newest first; times in UTC.
      </Text>
      <AdminTable
        testId="webhook-attempts"
        rows={attempts}
        empty="No attempts yet."
        columns={[
          { header: "At", cell: (attempt) => utcText(attempt.at) },
          {
            header: "Event",
            cell: (attempt) => (
              <>
                {attempt.type}
                <Text size="xs" c="dimmed">
                  {attempt.eventId}
                </Text>
              </>
            ),
          },
          { header: "Answer", cell: (attempt) => attempt.statusCode ?? "none" },
          { header: "Time", cell: (attempt) => `${attempt.durationMs} ms` },
          { header: "Error", cell: (attempt) => attempt.error ?? "delivered" },
          {
            header: "Retry",
            cell: (attempt) => (
              <Form method="post" action={PAGE}>
                <input type="hidden" name="id" value={endpoint._id} />
                <input type="hidden" name="deliveryId" value={attempt._id} />
                <Button
                  type="submit"
                  name="intent"
                  value="retry"
                  variant="default"
                  size="xs"
                  aria-label={`Send ${attempt.type} ${attempt.eventId} again`}
                >
                  Send again
                </Button>
              </Form>
            ),
          },
        ]}
      />
    </div>
  );
}

export default function AdminWebhooks() {
  const { endpoints, editing, shown, adding } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const created = answer && "created" in answer ? answer.created : null;
  return (
    <AdminRecordsPage
      page={PAGE}
      title="Webhooks"
      noun="webhook endpoint"
      addLabel="Add endpoint"
      intro="Other systems hear what happens in the shop: each event is POSTed, signed (Standard Webhooks), and retried for a day when it fails. 20 failures in a row switch an endpoint off and mail the admins."
      tableTestId="webhook-table"
      rows={endpoints}
      empty="No endpoints yet."
      rowName={(endpoint) => endpoint.url}
      rowTestId={() => "webhook-row"}
      rowLinks={(endpoint) => (
        <Link
          to={deliveriesOf(endpoint._id)}
          className="admin-btn"
          aria-label={`Deliveries to ${endpoint.url}`}
        >
          Deliveries
        </Link>
      )}
      columns={[
        {
          header: "URL",
          cell: (endpoint) => endpoint.url,
          style: { minWidth: "12rem", overflowWrap: "anywhere" },
        },
        {
          header: "Events",
          cell: (endpoint) => endpoint.events.map((type) => WEBHOOK_EVENT_LABELS[type]).join(", "),
        },
        {
          header: "Status",
          cell: (endpoint) => (
            <>
              <StatusBadge endpoint={endpoint} />
              {endpoint.disabledReason ? (
                <Text size="xs" c="red.9">
                  {endpoint.disabledReason}
                </Text>
              ) : null}
            </>
          ),
        },
      ]}
      formPrefix="webhook"
      formValues={webhookFormValues}
      fields={WebhookEndpointFields}
      adding={adding && !created}
      editing={editing}
    >
      {created ? <CreatedSecret created={created} /> : null}
      {shown ? <Deliveries shown={shown} /> : null}
    </AdminRecordsPage>
  );
}
