/**
 * What the delivery and discount admin pages' plain forms send back after a
 * refusal, and how their date fields read and write (safe in the browser).
 */

/** A form's fields as sent: one string each, or every value of a repeated field (checkboxes). */
export type SentValues = Record<string, string | string[]>;

export interface AdminFormReply {
  /** Which form was refused: "new", or the id of the thing being edited. */
  form: string;
  values: SentValues;
  errors: Record<string, string[]>;
  /** A refusal that names no field (the thing was deleted meanwhile). */
  message: string | null;
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
  return (name: string) => ({
    id: `${prefix}-${name}`,
    name,
    defaultValue: String(values[name] ?? ""),
    error: errors[name]?.[0],
  });
}
