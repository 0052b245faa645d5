import { Checkbox, Group, TextInput } from "@mantine/core";
import type { SentValues } from "~/lib/shared/admin-form";
import type { AdminShippingMethodJson } from "~/lib/shared/delivery-schemas";
import type { RecordFormFields } from "./AdminRecordForm";

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

/** A delivery option's fields; the server checks every one. */
export function ShippingMethodFields({ field }: RecordFormFields) {
  return (
    <>
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
      <Checkbox {...field.box("active")} label="Active (offered at checkout)" />
    </>
  );
}
