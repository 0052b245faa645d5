/**
 * What the admin's plain forms send back after a refusal, the intents of the
 * list-and-form pages (docs/decisions/0038), and how their date fields read
 * and write (safe in the browser).
 */

/** What a list-and-form page's forms post as `intent`; a page may add its own (a webhook's retry). */
export const RECORD_INTENTS = { create: "create", update: "update", delete: "delete" } as const;

/** A form's fields as sent: one string each, or every value of a repeated field (checkboxes). */
export type SentValues = Record<string, string | string[]>;

export interface AdminFormReply {
  /** Which form was refused: "new", or the id of the thing being edited. */
  form: string;
  values: SentValues;
  errors: Record<string, string[]>;
  /** A refusal that names no field (the thing was deleted or changed meanwhile). */
  message: string | null;
  /** The row changed since the form was loaded (409): the page offers to load it again. */
  stale?: boolean;
}

/**
 * The admin pages enter and show a code's dates in UTC (labelled so), the
 * same clock as the shopper's "starts on"/"ended on" messages: a
 * `datetime-local` input has no zone, so its "2026-12-31T23:59" is read as
 * UTC here rather than in whatever zone the server happens to run.
 */
export function utcFromLocalInput(value: string): string {
  const trimmed = value.trim();
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(trimmed) ? `${trimmed}Z` : trimmed;
}

/** An ISO instant as a `datetime-local` input's value, in UTC ("" for none). */
export function localInputFromUtc(iso: string | null): string {
  return iso ? iso.slice(0, 16) : "";
}

/** "2026-12-31 23:59 UTC" ("—" for none). */
export function utcText(iso: string | null): string {
  return iso ? `${iso.replace("T", " ").slice(0, 16)} UTC` : "—";
}

/**
 * The props every input of such a form shares: its id (unique per form on the
 * page), its name, the value sent or stored, and the field's first message.
 */
export function formFields(prefix: string, values: SentValues, errors: Record<string, string[]>) {
  const field = (name: string) => ({
    id: `${prefix}-${name}`,
    name,
    defaultValue: String(values[name] ?? ""),
    error: errors[name]?.[0],
  });
  /** A checkbox that sends "on" when ticked and nothing when not (the forms' `active`). */
  field.box = (name: string) => ({
    id: `${prefix}-${name}`,
    name,
    defaultChecked: values[name] === "on",
    error: errors[name]?.[0],
  });
  /** A field of ticked boxes: the values sent, and each box's id as `${idPrefix}-${value}`. */
  field.choices = (name: string, idPart = name) => ({
    name,
    idPrefix: `${prefix}-${idPart}`,
    chosen: sentList(values, name),
    error: errors[name]?.[0],
  });
  return field;
}

/** A repeated field's values (the ticked boxes), however many were sent. */
export function sentList(values: SentValues, name: string): string[] {
  const value = values[name];
  return Array.isArray(value) ? value : value ? [value] : [];
}
