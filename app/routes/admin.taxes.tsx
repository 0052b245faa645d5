import { Text } from "@mantine/core";
import {
  type ActionFunctionArgs,
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useLoaderData,
} from "react-router";
import { AdminRecordsPage, adminPageLinks } from "~/components/admin/AdminRecordsPage";
import { TaxRateFields, taxRateFormValues } from "~/components/admin/TaxRateForm";
import { getConfig } from "~/lib/server/config.server";
import { CATEGORY_LABELS } from "~/lib/shared/catalog-options";
import { formatPrice } from "~/lib/shared/money";
import { rateLabel, RATE_UNITS_PER_PERCENT } from "~/lib/shared/order-tax";
import type { TaxRateJson } from "~/lib/shared/tax-schemas";
import {
  createTaxRate,
  deleteTaxRate,
  getTaxRate,
  listTaxRates,
  TAX_RATE_TEXT,
  updateTaxRate,
} from "~/services/tax-rates.server";
import { openedRecords, recordAction, type AdminRecords } from "~/web/admin-form.server";
import { requireArea } from "~/web/auth.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => adminPageLinks;

const PAGE = "/admin/taxes";

const taxRates: AdminRecords<TaxRateJson> = {
  page: PAGE,
  text: TAX_RATE_TEXT,
  repeated: ["appliesTo"],
  /** The form as the service reads it: the ticked boxes of `appliesTo`, the rest as text. */
  inputOf: (sent) => ({
    ...sent.texts(["name", "country", "region", "rate", "exemptBelow"]),
    appliesTo: sent.list("appliesTo"),
  }),
  get: getTaxRate,
  create: createTaxRate,
  update: updateTaxRate,
  remove: deleteTaxRate,
};

export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "taxes");
  const opened = await openedRecords(request, taxRates);
  const { pricesIncludeTax, shopCountry } = getConfig();
  return data({ rates: await listTaxRates(), ...opened, pricesIncludeTax, shopCountry });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return recordAction({ request, context }, await requireArea(request, "taxes"), taxRates);
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
  return (
    <AdminRecordsPage
      page={PAGE}
      title="Taxes"
      noun="tax rate"
      introTestId="tax-mode"
      intro={
        <>
          {pricesIncludeTax
            ? "Prices include tax (PRICES_INCLUDE_TAX=true): the tax is the part of each price its rates make up."
            : "Prices do not include tax: the tax is added to the total at checkout."}{" "}
          Every rate that matches the delivery address applies (a state’s and a city’s add up); each line is
          taxed on what the shopper pays for it after its share of the discount. Addresses without a country
          are in {shopCountry}.
        </>
      }
      tableTestId="tax-rates-table"
      rows={rates}
      empty="No tax rates: no order is taxed."
      rowName={(rate) => rate.name}
      columns={[
        {
          header: "Name",
          cell: (rate) => (
            <>
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
            </>
          ),
        },
        {
          header: "Where",
          cell: (rate) =>
            rate.region ? `${rate.country}-${rate.region}` : `${rate.country} (whole country)`,
        },
        { header: "Rate", cell: (rate) => rateLabel(Math.round(rate.rate * RATE_UNITS_PER_PERCENT)) },
        { header: "Applies to", cell: (rate) => appliesToText(rate.appliesTo) },
        {
          header: "Exempt below",
          cell: (rate) => (rate.exemptBelow === null ? "—" : formatPrice(rate.exemptBelow)),
        },
      ]}
      formPrefix="tax"
      formValues={taxRateFormValues}
      fields={TaxRateFields}
      adding={adding}
      editing={editing}
    />
  );
}
