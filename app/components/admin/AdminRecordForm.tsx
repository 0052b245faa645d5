import { Button, Checkbox, Group, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { type formFields, RECORD_INTENTS, type SentValues } from "~/lib/shared/admin-form";

/** What a list-and-form page gives the fields of its form (app/components/admin/AdminRecordsPage.tsx). */
export interface RecordFormFields {
  /**
   * The props of one input, from the values sent or stored and the field's
   * message: `<TextInput {...field("name")} … />`, `field.box("active")` for a
   * checkbox, `field.choices("events")` for a ChoiceGroup.
   */
  field: ReturnType<typeof formFields>;
}

interface AdminRecordFormProps {
  /** What one row is, in words: "tax rate" makes "Add tax rate" and "Edit tax rate". */
  noun: string;
  intent: typeof RECORD_INTENTS.create | typeof RECORD_INTENTS.update;
  id?: string;
  values: SentValues;
  /** A refusal that names no field; `stale` when the row changed since the form was loaded. */
  message?: string | null;
  stale?: boolean;
  cancelTo: string;
  children: ReactNode;
}

/**
 * Adds or edits one row of a list-and-form page: a plain form that posts to
 * the page (no JavaScript needed) with the row's id and the `version` it was
 * based on; the server checks every field and sends the form back with its
 * messages beside the fields, or with a link to the current version when the
 * row changed meanwhile.
 */
export function AdminRecordForm({
  noun,
  intent,
  id,
  values,
  message,
  stale,
  cancelTo,
  children,
}: AdminRecordFormProps) {
  const version = String(values.version ?? "");
  return (
    <Form
      method="post"
      noValidate
      aria-label={`${intent === RECORD_INTENTS.create ? "Add" : "Edit"} ${noun}`}
    >
      {id ? <input type="hidden" name="id" value={id} /> : null}
      {version ? <input type="hidden" name="version" value={version} /> : null}
      <Stack gap="sm">
        {message ? (
          <Text className="field-error" role="alert">
            {message}
            {stale && id ? (
              <>
                {" "}
                <Link to={`${cancelTo}?edit=${id}`}>Load the current version</Link>
              </>
            ) : null}
          </Text>
        ) : null}
        {children}
        <Group>
          <Button type="submit" name="intent" value={intent}>
            {intent === RECORD_INTENTS.create ? "Add" : "Save"}
          </Button>
          <Link to={cancelTo} className="admin-btn">
            Cancel
          </Link>
        </Group>
      </Stack>
    </Form>
  );
}

type ChoiceGroupProps = ReturnType<ReturnType<typeof formFields>["choices"]> & {
  legend: string;
  options: readonly { value: string; label: string }[];
};

/**
 * A field of ticked boxes (categories, events): one value sent per ticked box,
 * its message below them. `<ChoiceGroup {...field.choices("events", "event")} legend=… options=… />`.
 */
export function ChoiceGroup({ legend, name, idPrefix, options, chosen, error }: ChoiceGroupProps) {
  return (
    <fieldset className="discount-form__choices">
      <legend>{legend}</legend>
      <Group gap="md">
        {options.map(({ value, label }) => (
          <Checkbox
            key={value}
            id={`${idPrefix}-${value}`}
            name={name}
            value={value}
            label={label}
            defaultChecked={chosen.includes(value)}
          />
        ))}
      </Group>
      {error ? <p className="field-error">{error}</p> : null}
    </fieldset>
  );
}
