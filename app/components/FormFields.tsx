import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { PasswordInput, TextInput } from "@mantine/core";

/**
 * Mantine inputs bound to a conform field: name, id, constraints, the value
 * sent last time and the error, all rendered on the server so that a form
 * works and explains itself without JavaScript.
 */
interface FieldProps {
  field: FieldMetadata<string>;
  label: string;
  placeholder?: string;
  type?: "text" | "email" | "password";
  autoComplete?: string;
}

export function ConformTextInput({ field, label, placeholder, type = "text", autoComplete }: FieldProps) {
  const { key, ...inputProps } = getInputProps(field, { type: type === "password" ? "password" : type });
  const error = field.errors?.[0];
  const shared = {
    ...inputProps,
    label,
    placeholder,
    autoComplete,
    error,
    errorProps: { id: field.errorId },
    withAsterisk: field.required,
  };
  return type === "password" ? <PasswordInput key={key} {...shared} /> : <TextInput key={key} {...shared} />;
}
