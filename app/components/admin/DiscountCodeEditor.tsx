import { Checkbox, Group, NativeSelect, TextInput } from "@mantine/core";
import { localInputFromUtc, type SentValues } from "~/lib/shared/admin-form";
import { BRANDS, BRAND_LABELS, CATEGORIES, CATEGORY_LABELS } from "~/lib/shared/catalog-options";
import type { DiscountCodeJson } from "~/lib/shared/delivery-schemas";
import { ChoiceGroup, type RecordFormFields } from "./AdminRecordForm";

const CATEGORY_OPTIONS = CATEGORIES.map((category) => ({
  value: category,
  label: CATEGORY_LABELS[category],
}));
const BRAND_OPTIONS = BRANDS.map((brand) => ({ value: brand, label: BRAND_LABELS[brand] }));

/** A code as the form's values (an empty form for a new one: a percent code, active). */
export function discountFormValues(code: DiscountCodeJson | null): SentValues {
  const text = (value: number | null | undefined) =>
    value === null || value === undefined ? "" : String(value);
  return {
    code: code?.code ?? "",
    type: code?.type ?? "percent",
    value: text(code?.value),
    minSubtotal: code && code.minSubtotal > 0 ? code.minSubtotal.toFixed(2) : "",
    startsAt: localInputFromUtc(code?.startsAt ?? null),
    endsAt: localInputFromUtc(code?.endsAt ?? null),
    usageLimit: text(code?.usageLimit),
    perCustomerLimit: text(code?.perCustomerLimit),
    categories: code?.categories ?? [],
    brands: code?.brands ?? [],
    active: code === null || code.active ? "on" : "",
  };
}

/** A discount code's fields; the server checks every one (the API's rules). Dates are UTC. */
export function DiscountCodeFields({ field }: RecordFormFields) {
  return (
    <>
      <Group grow align="flex-start">
        <TextInput
          {...field("code")}
          label="Code"
          description="Letters, digits, - or _; shoppers may type it in any case"
          required
          maxLength={40}
        />
        <NativeSelect
          {...field("type")}
          label="Type"
          data={[
            { value: "percent", label: "Percent off" },
            { value: "fixed", label: "Amount off ($)" },
          ]}
        />
        <TextInput
          {...field("value")}
          label="Value"
          description="10 for 10 % or for $10"
          inputMode="decimal"
          required
        />
      </Group>
      <TextInput
        {...field("minSubtotal")}
        label="Minimum subtotal ($)"
        description="The cart's subtotal needed to use the code; empty: none"
        inputMode="decimal"
      />
      <Group grow align="flex-start">
        <TextInput
          {...field("startsAt")}
          type="datetime-local"
          label="Starts at (UTC)"
          description="Empty: from now"
        />
        <TextInput
          {...field("endsAt")}
          type="datetime-local"
          label="Ends at (UTC)"
          description="Empty: no end"
        />
      </Group>
      <Group grow align="flex-start">
        <TextInput
          {...field("usageLimit")}
          label="Uses in total"
          description="Empty: no limit"
          inputMode="numeric"
        />
        <TextInput
          {...field("perCustomerLimit")}
          label="Uses per customer"
          description="Empty: no limit"
          inputMode="numeric"
        />
      </Group>
      <ChoiceGroup
        {...field.choices("categories", "category")}
        legend="Categories (none ticked: every category)"
        options={CATEGORY_OPTIONS}
      />
      <ChoiceGroup
        {...field.choices("brands", "brand")}
        legend="Brands (none ticked: every brand)"
        options={BRAND_OPTIONS}
      />
      <Checkbox {...field.box("active")} label="Active (shoppers can use it)" />
    </>
  );
}
