import { Button, Checkbox, Group, NativeSelect, Stack, Text, TextInput } from "@mantine/core";
import { Form, Link } from "react-router";
import { formFields, localInputFromUtc, type SentValues } from "~/lib/shared/admin-form";
import { BRANDS, BRAND_LABELS, CATEGORIES, CATEGORY_LABELS } from "~/lib/shared/catalog-options";
import type { DiscountCodeJson } from "~/lib/shared/delivery-schemas";

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

interface DiscountCodeEditorProps {
  intent: "create" | "update";
  id?: string;
  values: SentValues;
  errors: Record<string, string[]>;
  message?: string | null;
  cancelTo: string;
}

function listOf(values: SentValues, name: string): string[] {
  const value = values[name];
  return Array.isArray(value) ? value : value ? [value] : [];
}

/**
 * Adds or edits a discount code: a plain form that posts to the page (no
 * JavaScript needed); the server checks every field (the API's rules) and
 * sends the form back with its messages beside the fields. Dates are UTC.
 */
export function DiscountCodeEditor({
  intent,
  id,
  values,
  errors,
  message,
  cancelTo,
}: DiscountCodeEditorProps) {
  const value = (name: string) => String(values[name] ?? "");
  const error = (name: string) => errors[name]?.[0];
  const prefix = id ? `discount-${id}` : "discount-new";
  const field = formFields(prefix, values, errors);
  const categories = listOf(values, "categories");
  const brands = listOf(values, "brands");
  return (
    <Form
      method="post"
      noValidate
      aria-label={intent === "create" ? "Add discount code" : "Edit discount code"}
    >
      {id ? <input type="hidden" name="id" value={id} /> : null}
      <Stack gap="sm">
        {message ? (
          <Text className="field-error" role="alert">
            {message}
          </Text>
        ) : null}
        <Group grow align="flex-start">
          <TextInput
            {...field("code")}
            label="Code"
            description="Letters, digits, - or _; shoppers may type it in any case"
            required
            maxLength={40}
          />
          <NativeSelect
            id={`${prefix}-type`}
            name="type"
            label="Type"
            defaultValue={value("type")}
            error={error("type")}
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
        <fieldset className="discount-form__choices">
          <legend>Categories (none ticked: every category)</legend>
          <Group gap="md">
            {CATEGORIES.map((category) => (
              <Checkbox
                key={category}
                id={`${prefix}-category-${category}`}
                name="categories"
                value={category}
                label={CATEGORY_LABELS[category]}
                defaultChecked={categories.includes(category)}
              />
            ))}
          </Group>
          {error("categories") ? <p className="field-error">{error("categories")}</p> : null}
        </fieldset>
        <fieldset className="discount-form__choices">
          <legend>Brands (none ticked: every brand)</legend>
          <Group gap="md">
            {BRANDS.map((brand) => (
              <Checkbox
                key={brand}
                id={`${prefix}-brand-${brand}`}
                name="brands"
                value={brand}
                label={BRAND_LABELS[brand]}
                defaultChecked={brands.includes(brand)}
              />
            ))}
          </Group>
          {error("brands") ? <p className="field-error">{error("brands")}</p> : null}
        </fieldset>
        <Checkbox
          id={`${prefix}-active`}
          name="active"
          label="Active (shoppers can use it)"
          defaultChecked={value("active") === "on"}
          error={error("active")}
        />
        <Group>
          <Button type="submit" name="intent" value={intent}>
            {intent === "create" ? "Add" : "Save"}
          </Button>
          <Link to={cancelTo} className="admin-btn">
            Cancel
          </Link>
        </Group>
      </Stack>
    </Form>
  );
}
