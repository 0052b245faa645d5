import type { PlainFieldState } from "./plain-form";

/**
 * A labelled input or textarea in plain HTML with the storefront's classes (no Mantine and no form library:
 * the storefront's JavaScript budget keeps them off its pages, docs/decisions/0008 and 0052). Name, id,
 * required, the value sent last time and the error all render on the server, so the form works and explains
 * itself without JavaScript.
 */
interface PlainFieldProps {
  field: PlainFieldState;
  label: string;
  placeholder?: string;
  type?: "text" | "email" | "password" | "tel";
  autoComplete?: string;
  inputMode?: "numeric" | "tel";
  maxLength?: number;
  /** A textarea of this many rows instead of an input. */
  rows?: number;
}

export function PlainField({
  field,
  label,
  placeholder,
  type = "text",
  autoComplete,
  inputMode,
  maxLength,
  rows,
}: PlainFieldProps) {
  const error = field.errors?.[0];
  const shared = {
    id: field.id,
    name: field.name,
    required: field.required || undefined,
    // A password is never written back into the page.
    defaultValue: type === "password" ? undefined : field.defaultValue,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? field.errorId : undefined,
    placeholder,
    autoComplete,
    maxLength,
  };
  const control = rows ? (
    <textarea {...shared} rows={rows} className="sf-textarea" />
  ) : (
    <input {...shared} type={type} inputMode={inputMode} className="sf-input" />
  );
  return (
    <div className="sf-field">
      <label htmlFor={field.id} className="sf-field__label">
        {label}
        {field.required ? (
          <span className="sf-field__required" aria-hidden="true">
            {" "}
            *
          </span>
        ) : null}
      </label>
      {control}
      {error ? (
        <p className="form-error" id={field.errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
