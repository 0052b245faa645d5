import { readForm } from "~/lib/server/request-body.server";
import { RowActions } from "~/components/admin/RowActions";
import { Badge, Group, Table, Text, Title } from "@mantine/core";
import {
  type ActionFunctionArgs,
  data,
  Link,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useLoaderData,
} from "react-router";
import { ShippingMethodForm, shippingFormValues } from "~/components/admin/ShippingMethodForm";
import { isAppError } from "~/lib/server/errors.server";
import type { AdminFormReply } from "~/lib/shared/admin-form";
import { formatPrice } from "~/lib/shared/money";
import {
  createShippingMethod,
  deleteShippingMethod,
  getShippingMethod,
  listShippingMethods,
  SHIPPING_TEXT,
  updateShippingMethod,
} from "~/services/shipping.server";
import { refuseAdminForm, sentValuesOf } from "~/web/admin-form.server";
import { auditByOf } from "~/web/audit.server";
import { requireArea } from "~/web/auth.server";
import { runOrRefuse, redirectWithRefusal } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import adminStyles from "~/styles/admin.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

const PAGE = "/admin/shipping";

/** The form as the service reads it: an unticked box sends nothing, which here means "inactive". */
function shippingInputOf(formData: FormData) {
  const text = (name: string) => String(formData.get(name) ?? "");
  return {
    name: text("name"),
    price: text("price"),
    estimatedDaysMin: text("estimatedDaysMin"),
    estimatedDaysMax: text("estimatedDaysMax"),
    estimatedText: text("estimatedText"),
    freeOver: text("freeOver"),
    active: formData.get("active") === "on" ? "true" : "false",
    position: text("position"),
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "shipping");
  const params = new URL(request.url).searchParams;
  const editId = params.get("edit");
  let editing = null;
  if (editId) {
    try {
      editing = await getShippingMethod(editId);
    } catch (error) {
      if (!isAppError(error) || error.status !== 404) throw error;
      return redirectWithFlash(request, PAGE, { type: "error", message: error.message });
    }
  }
  return data({ methods: await listShippingMethods(), editing, adding: params.get("panel") === "new" });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const by = auditByOf(await requireArea(request, "shipping"), context);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const id = String(formData.get("id") ?? "");
  if (intent === "delete") {
    return runOrRefuse(
      async () => {
        await deleteShippingMethod(id, by);
        return redirectWithFlash(request, PAGE, { type: "success", message: SHIPPING_TEXT.deleted });
      },
      (error) => redirectWithRefusal(request, PAGE, error),
    );
  }
  if (intent !== "create" && intent !== "update") {
    return redirectWithFlash(request, PAGE, { type: "error", message: "Unknown action" });
  }
  const values = sentValuesOf(formData);
  return runOrRefuse(
    async () => {
      const input = shippingInputOf(formData);
      if (intent === "create") await createShippingMethod(input, by);
      else await updateShippingMethod(id, input, by);
      return redirectWithFlash(request, PAGE, {
        type: "success",
        message: intent === "create" ? SHIPPING_TEXT.created : SHIPPING_TEXT.updated,
      });
    },
    (error) => {
      if (error.status === 404) return redirectWithRefusal(request, PAGE, error);
      return refuseAdminForm(intent === "create" ? "new" : id, values, error);
    },
  );
}

export const meta: MetaFunction = () => [{ title: "Delivery options · ECommerce Shopping" }];

export default function AdminShipping() {
  const { methods, editing, adding } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as AdminFormReply | undefined;
  // A refused form stays open with what was sent, whatever the URL says.
  const newOpen = adding || reply?.form === "new";
  const editingReply = editing && reply?.form === editing._id ? reply : undefined;

  return (
    <section className="admin-page">
      <div className="admin-card">
        <Group justify="space-between" mb="md">
          <Title order={1} size="h3">
            Delivery options
          </Title>
          <Link to={`${PAGE}?panel=new`} className="admin-btn admin-btn--dark">
            Add delivery option
          </Link>
        </Group>
        <Text size="sm" c="dimmed" mb="sm">
          Shoppers see the active options, cheapest first; the cheapest is chosen for them. Above “free over”
          (the subtotal after any discount) an option costs nothing. With no active option, delivery is free.
        </Text>
        <div className="variant-table__scroll">
          <Table striped withTableBorder data-testid="shipping-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Price</Table.Th>
                <Table.Th>Estimated</Table.Th>
                <Table.Th>Free over</Table.Th>
                <Table.Th>Position</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {methods.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={7}>No delivery options: delivery is free.</Table.Td>
                </Table.Tr>
              ) : (
                methods.map((method) => (
                  <Table.Tr key={method._id}>
                    <Table.Td>{method.name}</Table.Td>
                    <Table.Td>{formatPrice(method.price)}</Table.Td>
                    <Table.Td>{method.estimatedDays || "—"}</Table.Td>
                    <Table.Td>{method.freeOver === null ? "—" : formatPrice(method.freeOver)}</Table.Td>
                    <Table.Td>{method.position}</Table.Td>
                    <Table.Td>
                      <Badge color={method.active ? "green" : "gray"} variant="light">
                        {method.active ? "Active" : "Inactive"}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <RowActions page={PAGE} id={method._id} name={method.name} />
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
            Add delivery option
          </Title>
          <ShippingMethodForm
            key={reply?.form === "new" ? JSON.stringify(reply.values) : "new"}
            intent="create"
            values={reply?.form === "new" ? reply.values : shippingFormValues(null)}
            errors={reply?.form === "new" ? reply.errors : {}}
            message={reply?.form === "new" ? reply.message : null}
            cancelTo={PAGE}
          />
        </div>
      ) : null}
      {editing ? (
        <div className="admin-card">
          <Title order={2} size="h4" mb="sm">
            Edit {editing.name}
          </Title>
          <ShippingMethodForm
            key={editingReply ? JSON.stringify(editingReply.values) : editing._id}
            intent="update"
            id={editing._id}
            values={editingReply?.values ?? shippingFormValues(editing)}
            errors={editingReply?.errors ?? {}}
            message={editingReply?.message}
            cancelTo={PAGE}
          />
        </div>
      ) : null}
    </section>
  );
}
