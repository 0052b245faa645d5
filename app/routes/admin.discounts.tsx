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
import { DiscountCodeEditor, discountFormValues } from "~/components/admin/DiscountCodeEditor";
import { isAppError } from "~/lib/server/errors.server";
import { utcFromLocalInput, utcText, type AdminFormReply } from "~/lib/shared/admin-form";
import { BRAND_LABELS, CATEGORY_LABELS, type Brand, type Category } from "~/lib/shared/catalog-options";
import type { DiscountCodeJson } from "~/lib/shared/delivery-schemas";
import { formatPrice } from "~/lib/shared/money";
import {
  createDiscountCode,
  deleteDiscountCode,
  getDiscountCode,
  listDiscountCodes,
  updateDiscountCode,
} from "~/services/discount-admin.server";
import { DISCOUNT_TEXT } from "~/services/discounts.server";
import { refuseAdminForm, sentValuesOf } from "~/web/admin-form.server";
import { auditByOf } from "~/web/audit.server";
import { requireArea } from "~/web/auth.server";
import { runOrRefuse, redirectWithRefusal } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import adminStyles from "~/styles/admin.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

const PAGE = "/admin/discounts";
const LIST_FIELDS = ["categories", "brands"] as const;

/**
 * The form as the service reads it. Its dates are UTC (the inputs say so);
 * an unticked "active" sends nothing, which here means "inactive"; no ticked
 * category or brand means "all".
 */
function discountInputOf(formData: FormData) {
  const text = (name: string) => String(formData.get(name) ?? "");
  return {
    code: text("code"),
    type: text("type"),
    value: text("value"),
    minSubtotal: text("minSubtotal"),
    startsAt: utcFromLocalInput(text("startsAt")),
    endsAt: utcFromLocalInput(text("endsAt")),
    usageLimit: text("usageLimit"),
    perCustomerLimit: text("perCustomerLimit"),
    categories: formData.getAll("categories").map(String),
    brands: formData.getAll("brands").map(String),
    active: formData.get("active") === "on" ? "true" : "false",
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "discounts");
  const params = new URL(request.url).searchParams;
  const editId = params.get("edit");
  let editing = null;
  if (editId) {
    try {
      editing = await getDiscountCode(editId);
    } catch (error) {
      if (!isAppError(error) || error.status !== 404) throw error;
      return redirectWithFlash(request, PAGE, { type: "error", message: error.message });
    }
  }
  return data({ codes: await listDiscountCodes(), editing, adding: params.get("panel") === "new" });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const by = auditByOf(await requireArea(request, "discounts"), context);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const id = String(formData.get("id") ?? "");
  if (intent === "delete") {
    return runOrRefuse(
      async () => {
        await deleteDiscountCode(id, by);
        return redirectWithFlash(request, PAGE, { type: "success", message: DISCOUNT_TEXT.deleted });
      },
      (error) => redirectWithRefusal(request, PAGE, error),
    );
  }
  if (intent !== "create" && intent !== "update") {
    return redirectWithFlash(request, PAGE, { type: "error", message: "Unknown action" });
  }
  const values = sentValuesOf(formData, LIST_FIELDS);
  return runOrRefuse(
    async () => {
      const input = discountInputOf(formData);
      if (intent === "create") await createDiscountCode(input, by);
      else await updateDiscountCode(id, input, by);
      return redirectWithFlash(request, PAGE, {
        type: "success",
        message: intent === "create" ? DISCOUNT_TEXT.created : DISCOUNT_TEXT.updated,
      });
    },
    (error) => {
      if (error.status === 404) return redirectWithRefusal(request, PAGE, error);
      return refuseAdminForm(intent === "create" ? "new" : id, values, error);
    },
  );
}

export const meta: MetaFunction = () => [{ title: "Discount codes · ECommerce Shopping" }];

function valueText(code: DiscountCodeJson): string {
  return code.type === "percent" ? `${code.value} %` : formatPrice(code.value);
}

function appliesTo(code: DiscountCodeJson): string {
  const parts = [
    ...code.categories.map((category) => CATEGORY_LABELS[category as Category] ?? category),
    ...code.brands.map((brand) => BRAND_LABELS[brand as Brand] ?? brand),
  ];
  return parts.length ? parts.join(", ") : "Everything";
}

export default function AdminDiscounts() {
  const { codes, editing, adding } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as AdminFormReply | undefined;
  // A refused form stays open with what was sent, whatever the URL says.
  const newOpen = adding || reply?.form === "new";
  const editingReply = editing && reply?.form === editing._id ? reply : undefined;

  return (
    <section className="admin-page">
      <div className="admin-card">
        <Group justify="space-between" mb="md">
          <Title order={1} size="h3">
            Discount codes
          </Title>
          <Link to={`${PAGE}?panel=new`} className="admin-btn admin-btn--dark">
            Add discount code
          </Link>
        </Group>
        <Text size="sm" c="dimmed" mb="sm">
          Dates are shown and entered in UTC. A use is counted when an order with the code is paid.
        </Text>
        <div className="variant-table__scroll">
          <Table striped withTableBorder data-testid="discount-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Code</Table.Th>
                <Table.Th>Off</Table.Th>
                <Table.Th>Minimum</Table.Th>
                <Table.Th>Valid (UTC)</Table.Th>
                <Table.Th>Uses / limit</Table.Th>
                <Table.Th>Per customer</Table.Th>
                <Table.Th>Applies to</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {codes.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={9}>No discount codes yet.</Table.Td>
                </Table.Tr>
              ) : (
                codes.map((code) => (
                  <Table.Tr key={code._id} data-testid={`discount-row-${code.code}`}>
                    <Table.Td>{code.code}</Table.Td>
                    <Table.Td>{valueText(code)}</Table.Td>
                    <Table.Td>{code.minSubtotal > 0 ? formatPrice(code.minSubtotal) : "—"}</Table.Td>
                    <Table.Td>
                      {code.startsAt || code.endsAt
                        ? `${code.startsAt ? utcText(code.startsAt) : "now"} to ${code.endsAt ? utcText(code.endsAt) : "no end"}`
                        : "Always"}
                    </Table.Td>
                    <Table.Td>
                      {code.uses} / {code.usageLimit ?? "no limit"}
                    </Table.Td>
                    <Table.Td>{code.perCustomerLimit ?? "no limit"}</Table.Td>
                    <Table.Td>{appliesTo(code)}</Table.Td>
                    <Table.Td>
                      <Badge color={code.active ? "green" : "gray"} variant="light">
                        {code.active ? "Active" : "Inactive"}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <RowActions page={PAGE} id={code._id} name={code.code} />
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
            Add discount code
          </Title>
          <DiscountCodeEditor
            key={reply?.form === "new" ? JSON.stringify(reply.values) : "new"}
            intent="create"
            values={reply?.form === "new" ? reply.values : discountFormValues(null)}
            errors={reply?.form === "new" ? reply.errors : {}}
            message={reply?.form === "new" ? reply.message : null}
            cancelTo={PAGE}
          />
        </div>
      ) : null}
      {editing ? (
        <div className="admin-card">
          <Title order={2} size="h4" mb="sm">
            Edit {editing.code}
          </Title>
          <DiscountCodeEditor
            key={editingReply ? JSON.stringify(editingReply.values) : editing._id}
            intent="update"
            id={editing._id}
            values={editingReply?.values ?? discountFormValues(editing)}
            errors={editingReply?.errors ?? {}}
            message={editingReply?.message}
            cancelTo={PAGE}
          />
        </div>
      ) : null}
    </section>
  );
}
