import { readForm } from "~/lib/server/request-body.server";
import { RowActions } from "~/components/admin/RowActions";
import { Button, Code, Group, Table, Text, Title } from "@mantine/core";
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
import { WebhookEndpointEditor, webhookFormValues } from "~/components/admin/WebhookEndpointEditor";
import { isAppError } from "~/lib/server/errors.server";
import { utcText, type AdminFormReply } from "~/lib/shared/admin-form";
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
import { refuseAdminForm, sentValuesOf } from "~/web/admin-form.server";
import { auditByOf } from "~/web/audit.server";
import { requireArea } from "~/web/auth.server";
import { runOrRefuse, redirectWithRefusal } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import adminStyles from "~/styles/admin.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

const PAGE = "/admin/webhooks";

/** The form as the service reads it: an unticked "active" sends nothing, which here means "off". */
function endpointInputOf(formData: FormData) {
  return {
    url: String(formData.get("url") ?? ""),
    events: formData.getAll("events").map(String),
    active: formData.get("active") === "on" ? "true" : "false",
  };
}

/** The page showing one endpoint's deliveries. */
const deliveriesOf = (id: string) => `${PAGE}?endpoint=${id}`;

async function orNotFound<T>(request: Request, read: () => Promise<T>): Promise<T | Response> {
  try {
    return await read();
  } catch (error) {
    if (!isAppError(error) || error.status !== 404) throw error;
    return redirectWithFlash(request, PAGE, { type: "error", message: error.message });
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "webhooks");
  const params = new URL(request.url).searchParams;
  const editId = params.get("edit");
  const endpointId = params.get("endpoint");
  const editing = editId ? await orNotFound(request, () => getWebhookEndpoint(editId)) : null;
  if (editing instanceof Response) return editing;
  const shown = endpointId
    ? await orNotFound(request, async () => {
        const endpoint = await getWebhookEndpoint(endpointId);
        return {
          endpoint,
          attempts: await listWebhookAttempts(endpoint._id),
          pending: await countPendingDeliveries(endpoint._id),
        };
      })
    : null;
  if (shown instanceof Response) return shown;
  return data({
    endpoints: await listWebhookEndpoints(),
    editing,
    shown,
    adding: params.get("panel") === "new",
  });
}

/** The answer to "Add": the page shows the new endpoint's signing secret this once (never stored to be read again). */
interface CreatedReply {
  created: { _id: string; url: string; secret: string };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const by = auditByOf(await requireArea(request, "webhooks"), context);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const id = String(formData.get("id") ?? "");
  if (intent === "delete") {
    return runOrRefuse(
      async () => {
        await deleteWebhookEndpoint(id, by);
        return redirectWithFlash(request, PAGE, { type: "success", message: WEBHOOK_TEXT.deleted });
      },
      (error) => redirectWithRefusal(request, PAGE, error),
    );
  }
  if (intent === "retry") {
    return runOrRefuse(
      async () => {
        await retryWebhookDelivery(id, formData.get("deliveryId"));
        return redirectWithFlash(request, deliveriesOf(id), {
          type: "success",
          message: WEBHOOK_TEXT.retried,
        });
      },
      (error) => redirectWithRefusal(request, deliveriesOf(id), error),
    );
  }
  if (intent !== "create" && intent !== "update") {
    return redirectWithFlash(request, PAGE, { type: "error", message: "Unknown action" });
  }
  const values = sentValuesOf(formData, ["events"]);
  return runOrRefuse(
    async () => {
      const input = endpointInputOf(formData);
      if (intent === "update") {
        await updateWebhookEndpoint(id, input, by);
        return redirectWithFlash(request, PAGE, { type: "success", message: WEBHOOK_TEXT.updated });
      }
      const created = await createWebhookEndpoint(input, by);
      return data<CreatedReply>({ created: { _id: created._id, url: created.url, secret: created.secret } });
    },
    (error) => {
      if (error.status === 404) return redirectWithRefusal(request, PAGE, error);
      return refuseAdminForm(intent === "create" ? "new" : id, values, error);
    },
  );
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
      <div className="variant-table__scroll">
        <Table striped withTableBorder data-testid="webhook-attempts">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>At</Table.Th>
              <Table.Th>Event</Table.Th>
              <Table.Th>Answer</Table.Th>
              <Table.Th>Time</Table.Th>
              <Table.Th>Error</Table.Th>
              <Table.Th>Retry</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {attempts.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={6}>No attempts yet.</Table.Td>
              </Table.Tr>
            ) : (
              attempts.map((attempt) => (
                <Table.Tr key={attempt._id}>
                  <Table.Td>{utcText(attempt.at)}</Table.Td>
                  <Table.Td>
                    {attempt.type}
                    <Text size="xs" c="dimmed">
                      {attempt.eventId}
                    </Text>
                  </Table.Td>
                  <Table.Td>{attempt.statusCode ?? "none"}</Table.Td>
                  <Table.Td>{attempt.durationMs} ms</Table.Td>
                  <Table.Td>{attempt.error ?? "delivered"}</Table.Td>
                  <Table.Td>
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
                  </Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </div>
    </div>
  );
}

export default function AdminWebhooks() {
  const { endpoints, editing, shown, adding } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as AdminFormReply | CreatedReply | undefined;
  const created = answer && "created" in answer ? answer.created : null;
  const reply = answer && "form" in answer ? answer : undefined;
  const newOpen = !created && (adding || reply?.form === "new");
  const editingReply = editing && reply?.form === editing._id ? reply : undefined;

  return (
    <section className="admin-page">
      <div className="admin-card">
        <Group justify="space-between" mb="md">
          <Title order={1} size="h3">
            Webhooks
          </Title>
          <Link to={`${PAGE}?panel=new`} className="admin-btn admin-btn--dark">
            Add endpoint
          </Link>
        </Group>
        <Text size="sm" c="dimmed" mb="sm">
          Other systems hear what happens in the shop: each event is POSTed, signed (Standard Webhooks), and
          retried for a day when it fails. 20 failures in a row switch an endpoint off and mail the admins.
        </Text>
        <div className="variant-table__scroll">
          <Table striped withTableBorder data-testid="webhook-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>URL</Table.Th>
                <Table.Th>Events</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {endpoints.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={4}>No endpoints yet.</Table.Td>
                </Table.Tr>
              ) : (
                endpoints.map((endpoint) => (
                  <Table.Tr key={endpoint._id} data-testid="webhook-row">
                    <Table.Td style={{ minWidth: "12rem", overflowWrap: "anywhere" }}>
                      {endpoint.url}
                    </Table.Td>
                    <Table.Td>
                      {endpoint.events.map((type) => WEBHOOK_EVENT_LABELS[type]).join(", ")}
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge endpoint={endpoint} />
                      {endpoint.disabledReason ? (
                        <Text size="xs" c="red.9">
                          {endpoint.disabledReason}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Link
                          to={deliveriesOf(endpoint._id)}
                          className="admin-btn"
                          aria-label={`Deliveries to ${endpoint.url}`}
                        >
                          Deliveries
                        </Link>
                        <RowActions page={PAGE} id={endpoint._id} name={endpoint.url} />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </div>
      </div>
      {newOpen ? (
        <div className="admin-card">
          <Title order={2} size="h4" mb="sm">
            Add webhook endpoint
          </Title>
          <WebhookEndpointEditor
            key={reply?.form === "new" ? JSON.stringify(reply.values) : "new"}
            intent="create"
            values={reply?.form === "new" ? reply.values : webhookFormValues(null)}
            errors={reply?.form === "new" ? reply.errors : {}}
            message={reply?.form === "new" ? reply.message : null}
            cancelTo={PAGE}
          />
        </div>
      ) : null}
      {editing ? (
        <div className="admin-card">
          <Title order={2} size="h4" mb="sm">
            Edit {editing.url}
          </Title>
          <WebhookEndpointEditor
            key={editingReply ? JSON.stringify(editingReply.values) : editing._id}
            intent="update"
            id={editing._id}
            values={editingReply?.values ?? webhookFormValues(editing)}
            errors={editingReply?.errors ?? {}}
            message={editingReply?.message}
            cancelTo={PAGE}
          />
        </div>
      ) : null}
      {created ? <CreatedSecret created={created} /> : null}
      {shown ? <Deliveries shown={shown} /> : null}
    </section>
  );
}
