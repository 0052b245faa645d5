import { Group, TextInput } from "@mantine/core";
import type { SentValues } from "~/lib/shared/admin-form";
import { CATEGORY_LABELS } from "~/lib/shared/catalog-options";
import { TAX_APPLIES_TO } from "~/lib/shared/order-tax";
import type { TaxRateJson } from "~/lib/shared/tax-schemas";
import { ChoiceGroup, type RecordFormFields } from "./AdminRecordForm";

const APPLIES_TO_LABELS: Record<string, string> = { ...CATEGORY_LABELS, shipping: "Delivery" };
const APPLIES_TO_OPTIONS = TAX_APPLIES_TO.map((what) => ({
  value: what,
  label: APPLIES_TO_LABELS[what] ?? what,
}));

/** A rate as the form's values (a new one applies to every category, not to delivery). */
export function taxRateFormValues(rate: TaxRateJson | null): SentValues {
  return {
    name: rate?.name ?? "",
    country: rate?.country ?? "US",
    region: rate?.region ?? "",
    rate: rate ? String(rate.rate) : "",
    appliesTo: rate?.appliesTo ?? TAX_APPLIES_TO.filter((what) => what !== "shipping"),
    exemptBelow:
      rate?.exemptBelow === null || rate?.exemptBelow === undefined ? "" : rate.exemptBelow.toFixed(2),
    version: rate ? String(rate.version) : "",
  };
}

/** A tax rate's fields; the server checks every one (the country and region codes too). */
export function TaxRateFields({ field }: RecordFormFields) {
  return (
    <>
      <TextInput
        {...field("name")}
        label="Name"
        description="Shown on orders, such as “NY State”"
        required
        maxLength={100}
      />
      <Group grow align="flex-start">
        <TextInput
          {...field("country")}
          label="Country"
          description="Two-letter code, such as US or DE"
          required
          maxLength={2}
          autoCapitalize="characters"
        />
        <TextInput
          {...field("region")}
          label="Region"
          description="State or province code, such as NY; empty: the whole country"
          maxLength={3}
          autoCapitalize="characters"
        />
      </Group>
      <Group grow align="flex-start">
        <TextInput
          {...field("rate")}
          label="Rate (%)"
          description="Up to four decimals, such as 8.875"
          inputMode="decimal"
          required
        />
        <TextInput
          {...field("exemptBelow")}
          label="Exempt below ($)"
          description="A unit price paid below this is not taxed by this rate; empty: none"
          inputMode="decimal"
        />
      </Group>
      <ChoiceGroup
        {...field.choices("appliesTo", "applies")}
        legend="Applies to (at least one)"
        options={APPLIES_TO_OPTIONS}
      />
    </>
  );
}
