import { readForm } from "~/lib/server/request-body.server";
import { RowActions } from "~/components/admin/RowActions";
import { Group, Table, Text, Title } from "@mantine/core";
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
import { TaxRateForm, taxRateFormValues } from "~/components/admin/TaxRateForm";
import { isAppError } from "~/lib/server/errors.server";
import { getConfig } from "~/lib/server/config.server";
import type { AdminFormReply } from "~/lib/shared/admin-form";
import { CATEGORY_LABELS } from "~/lib/shared/catalog-options";
import { formatPrice } from "~/lib/shared/money";
import { rateLabel, RATE_UNITS_PER_PERCENT } from "~/lib/shared/order-tax";
import {
  createTaxRate,
  deleteTaxRate,
  getTaxRate,
  listTaxRates,
  TAX_RATE_TEXT,
  updateTaxRate,
} from "~/services/tax-rates.server";
import { refuseAdminForm, sentValuesOf } from "~/web/admin-form.server";
import { auditByOf } from "~/web/audit.server";
import { requireArea } from "~/web/auth.server";
import { runOrRefuse, redirectWithRefusal } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import adminStyles from "~/styles/admin.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

const PAGE = "/admin/taxes";

/** The form as the service reads it: the ticked boxes of `appliesTo`, the rest as text. */
function taxRateInputOf(formData: FormData) {
  const text = (name: string) => String(formData.get(name) ?? "");
  return {
    name: text("name"),
    country: text("country"),
    region: text("region"),
    rate: text("rate"),
    appliesTo: formData.getAll("appliesTo").map(String),
    exemptBelow: text("exemptBelow"),
    ...(formData.get("version") ? { version: text("version") } : {}),
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "taxes");
  const params = new URL(request.url).searchParams;
  const editId = params.get("edit");
  let editing = null;
  if (editId) {
    try {
      editing = await getTaxRate(editId);
    } catch (error) {
      if (!isAppError(error) || error.status !== 404) throw error;
      return redirectWithFlash(request, PAGE, { type: "error", message: error.message });
    }
  }
  const { pricesIncludeTax, shopCountry } = getConfig();
  return data({
    rates: await listTaxRates(),
    editing,
    adding: params.get("panel") === "new",
    pricesIncludeTax,
    shopCountry,
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const by = auditByOf(await requireArea(request, "taxes"), context);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const id = String(formData.get("id") ?? "");
  if (intent === "delete") {
    return runOrRefuse(
      async () => {
        await deleteTaxRate(id, by);
        return redirectWithFlash(request, PAGE, { type: "success", message: TAX_RATE_TEXT.deleted });
      },
      (error) => redirectWithRefusal(request, PAGE, error),
    );
  }
  if (intent !== "create" && intent !== "update") {
    return redirectWithFlash(request, PAGE, { type: "error", message: "Unknown action" });
  }
  const values = sentValuesOf(formData, ["appliesTo"]);
  return runOrRefuse(
    async () => {
      const input = taxRateInputOf(formData);
      if (intent === "create") await createTaxRate(input, by);
      else await updateTaxRate(id, input, by);
      return redirectWithFlash(request, PAGE, {
        type: "success",
        message: intent === "create" ? TAX_RATE_TEXT.created : TAX_RATE_TEXT.updated,
      });
    },
    (error) => {
      if (error.status === 404) return redirectWithRefusal(request, PAGE, error);
      return refuseAdminForm(intent === "create" ? "new" : id, values, error);
    },
  );
}

export const meta: MetaFunction = () => [{ title: "Taxes · ECommerce Shopping" }];

function appliesToText(appliesTo: string[]): string {
  return appliesTo
    .map((what) =>
      what === "shipping" ? "Delivery" : ((CATEGORY_LABELS as Record<string, string>)[what] ?? what),
    )
    .join(", ");
}

export default function AdminTaxes() {
  const { rates, editing, adding, pricesIncludeTax, shopCountry } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as AdminFormReply | undefined;
  // A refused form stays open with what was sent, whatever the URL says.
  const newOpen = adding || reply?.form === "new";
  const editingReply = editing && reply?.form === editing._id ? reply : undefined;

  return (
    <section className="admin-page">
      <div className="admin-card">
        <Group justify="space-between" mb="md">
          <Title order={1} size="h3">
            Taxes
          </Title>
          <Link to={`${PAGE}?panel=new`} className="admin-btn admin-btn--dark">
            Add tax rate
          </Link>
        </Group>
        <Text size="sm" c="dimmed" mb="sm" data-testid="tax-mode">
          {pricesIncludeTax
            ? "Prices include tax (PRICES_INCLUDE_TAX=true): the tax is the part of each price its rates make up."
            : "Prices do not include tax: the tax is added to the total at checkout."}{" "}
          Every rate that matches the delivery address applies (a state’s and a city’s add up); each line is
          taxed on what the shopper pays for it after its share of the discount. Addresses without a country
          are in {shopCountry}.
        </Text>
        <div className="variant-table__scroll">
          <Table striped withTableBorder data-testid="tax-rates-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Where</Table.Th>
                <Table.Th>Rate</Table.Th>
                <Table.Th>Applies to</Table.Th>
                <Table.Th>Exempt below</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rates.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={6}>No tax rates: no order is taxed.</Table.Td>
                </Table.Tr>
              ) : (
                rates.map((rate) => (
                  <Table.Tr key={rate._id}>
                    <Table.Td>
                      {rate.name}{" "}
                      {rate.example ? (
                        <Text
                          component="span"
                          size="xs"
                          fw={600}
                          c="orange.8"
                          display="block"
                          title="Demo data: check it before you sell"
                        >
                          Example
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      {rate.region ? `${rate.country}-${rate.region}` : `${rate.country} (whole country)`}
                    </Table.Td>
                    <Table.Td>{rateLabel(Math.round(rate.rate * RATE_UNITS_PER_PERCENT))}</Table.Td>
                    <Table.Td>{appliesToText(rate.appliesTo)}</Table.Td>
                    <Table.Td>{rate.exemptBelow === null ? "—" : formatPrice(rate.exemptBelow)}</Table.Td>
                    <Table.Td>
                      <RowActions page={PAGE} id={rate._id} name={rate.name} />
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
            Add tax rate
          </Title>
          <TaxRateForm
            key={reply?.form === "new" ? JSON.stringify(reply.values) : "new"}
            intent="create"
            values={reply?.form === "new" ? reply.values : taxRateFormValues(null)}
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
          <TaxRateForm
            key={editingReply ? JSON.stringify(editingReply.values) : editing._id}
            intent="update"
            id={editing._id}
            values={editingReply?.values ?? taxRateFormValues(editing)}
            errors={editingReply?.errors ?? {}}
            message={editingReply?.message}
            cancelTo={PAGE}
          />
        </div>
      ) : null}
    </section>
  );
}
