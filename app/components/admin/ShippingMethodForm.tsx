import { Button, Checkbox, Group, Stack, Text, TextInput } from "@mantine/core";
import { Form, Link } from "react-router";
import { formFields, type SentValues } from "~/lib/shared/admin-form";
import type { AdminShippingMethodJson } from "~/lib/shared/delivery-schemas";

/** A delivery option as the form's values (an empty form for a new one, active by default). */
export function shippingFormValues(method: AdminShippingMethodJson | null): SentValues {
  const text = (value: number | string | null | undefined) =>
    value === null || value === undefined ? "" : String(value);
  return {
    name: method?.name ?? "",
    price: method ? method.price.toFixed(2) : "",
    estimatedDaysMin: text(method?.estimatedDaysMin),
    estimatedDaysMax: text(method?.estimatedDaysMax),
    estimatedText: text(method?.estimatedText),
    freeOver: method?.freeOver === null || method?.freeOver === undefined ? "" : method.freeOver.toFixed(2),
    active: method === null || method.active ? "on" : "",
    position: text(method?.position ?? 0),
  };
}

interface ShippingMethodFormProps {
  intent: "create" | "update";
  id?: string;
  values: SentValues;
  errors: Record<string, string[]>;
  message?: string | null;
  cancelTo: string;
}

/**
 * Adds or edits a delivery option: a plain form that posts to the page (no
 * JavaScript needed); the server checks every field and sends the form
 * back with its messages beside the fields.
 */
export function ShippingMethodForm({
  intent,
  id,
  values,
  errors,
  message,
  cancelTo,
}: ShippingMethodFormProps) {
  const value = (name: string) => String(values[name] ?? "");
  const error = (name: string) => errors[name]?.[0];
  const prefix = id ? `shipping-${id}` : "shipping-new";
  const field = formFields(prefix, values, errors);
  return (
    <Form
      method="post"
      noValidate
      aria-label={intent === "create" ? "Add delivery option" : "Edit delivery option"}
    >
      {id ? <input type="hidden" name="id" value={id} /> : null}
      <Stack gap="sm">
        {message ? (
          <Text className="field-error" role="alert">
            {message}
          </Text>
        ) : null}
        <TextInput {...field("name")} label="Name" required maxLength={60} />
        <Group grow align="flex-start">
          <TextInput
            {...field("price")}
            label="Price ($)"
            description="0 for free"
            inputMode="decimal"
            required
          />
          <TextInput
            {...field("freeOver")}
            label="Free over ($)"
            description="Free when the subtotal after the discount reaches this; empty: never"
            inputMode="decimal"
          />
        </Group>
        <Group grow align="flex-start">
          <TextInput {...field("estimatedDaysMin")} label="Estimated days, from" inputMode="numeric" />
          <TextInput {...field("estimatedDaysMax")} label="Estimated days, to" inputMode="numeric" />
        </Group>
        <TextInput
          {...field("estimatedText")}
          label="Estimated delivery text"
          description="Shown instead of the days when given, such as “Next working day”"
          maxLength={100}
        />
        <TextInput
          {...field("position")}
          label="Position"
          description="Orders options of the same price (lower first)"
          inputMode="numeric"
        />
        <Checkbox
          id={`${prefix}-active`}
          name="active"
          label="Active (offered at checkout)"
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
