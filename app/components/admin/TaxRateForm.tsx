import { Button, Checkbox, Group, Stack, Text, TextInput } from "@mantine/core";
import { Form, Link } from "react-router";
import { formFields, type SentValues } from "~/lib/shared/admin-form";
import { CATEGORY_LABELS } from "~/lib/shared/catalog-options";
import { TAX_APPLIES_TO } from "~/lib/shared/order-tax";
import type { TaxRateJson } from "~/lib/shared/tax-schemas";

const APPLIES_TO_LABELS: Record<string, string> = { ...CATEGORY_LABELS, shipping: "Delivery" };

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

interface TaxRateFormProps {
  intent: "create" | "update";
  id?: string;
  values: SentValues;
  errors: Record<string, string[]>;
  message?: string | null;
  cancelTo: string;
}

/**
 * Adds or edits a tax rate: a plain form that posts to the page (no
 * JavaScript needed); the server checks every field (the country and region
 * codes too) and sends the form back with its messages beside the fields.
 */
export function TaxRateForm({ intent, id, values, errors, message, cancelTo }: TaxRateFormProps) {
  const prefix = id ? `tax-${id}` : "tax-new";
  const field = formFields(prefix, values, errors);
  const sent = values.appliesTo;
  const appliesTo = Array.isArray(sent) ? sent : sent ? [sent] : [];
  const appliesError = errors.appliesTo?.[0];
  return (
    <Form method="post" noValidate aria-label={intent === "create" ? "Add tax rate" : "Edit tax rate"}>
      {id ? <input type="hidden" name="id" value={id} /> : null}
      {values.version ? <input type="hidden" name="version" value={String(values.version)} /> : null}
      <Stack gap="sm">
        {message ? (
          <Text className="field-error" role="alert">
            {message}
          </Text>
        ) : null}
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
        <fieldset className="discount-form__choices">
          <legend>Applies to (at least one)</legend>
          <Group gap="md">
            {TAX_APPLIES_TO.map((what) => (
              <Checkbox
                key={what}
                id={`${prefix}-applies-${what}`}
                name="appliesTo"
                value={what}
                label={APPLIES_TO_LABELS[what] ?? what}
                defaultChecked={appliesTo.includes(what)}
              />
            ))}
          </Group>
          {appliesError ? <p className="field-error">{appliesError}</p> : null}
        </fieldset>
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
