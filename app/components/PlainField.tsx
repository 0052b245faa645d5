import { getInputProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";

/**
 * A labelled input or textarea bound to a conform field, in plain HTML with
 * the storefront's classes (no Mantine: the storefront's JavaScript budget
 * keeps it off its pages, docs/decisions/0008). Name, id, required, the value
 * sent last time and the error all render on the server, so the form works
 * and explains itself without JavaScript.
 */
interface PlainFieldProps {
  field: FieldMetadata<string>;
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
  const shared = { placeholder, autoComplete, maxLength };
  let control;
  if (rows) {
    const { key, ...props } = getTextareaProps(field);
    control = <textarea key={key} {...props} {...shared} rows={rows} className="sf-textarea" />;
  } else {
    const { key, ...props } = getInputProps(field, { type });
    control = <input key={key} {...props} {...shared} inputMode={inputMode} className="sf-input" />;
  }
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
