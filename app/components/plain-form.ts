import { useState, type FocusEvent, type FormEvent } from "react";

/**
 * The storefront's plain forms without a form library in the page's JavaScript (docs/decisions/0052): the
 * server validates and answers conform's reply (`submission.reply()`), which these helpers read; the browser's
 * courtesy check, where a form has one, is the shared rule's own function. conform stays on the server and on
 * the pages outside the storefront's budget.
 */

/** What the server's reply carries that a form shows: the values sent and each field's messages ("" the form's). */
export interface FormReply {
  initialValue?: Record<string, unknown> | null;
  error?: Record<string, string[] | null> | null;
}

/** One field as PlainField renders it. */
export interface PlainFieldState {
  id: string;
  name: string;
  errorId: string;
  errors?: string[];
  required?: boolean;
  defaultValue?: string;
}

/** The form's own message (the reply's "" key) and its id. */
export interface PlainFormState {
  id: string;
  errorId: string;
  errors?: string[];
}

type Errors = Record<string, string[] | null | undefined>;

function fieldsOf<Name extends string>(
  formId: string,
  names: readonly Name[],
  errors: Errors,
  values: Record<string, unknown>,
  required: readonly string[],
): Record<Name, PlainFieldState> {
  const fields = {} as Record<Name, PlainFieldState>;
  for (const name of names) {
    const value = values[name];
    const fieldErrors = errors[name];
    fields[name] = {
      id: `${formId}-${name}`,
      name,
      errorId: `${formId}-${name}-error`,
      ...(fieldErrors?.length ? { errors: fieldErrors } : {}),
      required: required.includes(name),
      defaultValue: typeof value === "string" ? value : "",
    };
  }
  return fields;
}

function formOf(formId: string, errors: Errors): PlainFormState {
  const formErrors = errors[""];
  return { id: formId, errorId: `${formId}-error`, ...(formErrors?.length ? { errors: formErrors } : {}) };
}

/**
 * A form that the server alone checks: its fields with the reply's values and messages (what was typed comes
 * back, each message beside its field), else the defaults.
 */
export function plainForm<Name extends string>(
  formId: string,
  options: {
    names: readonly Name[];
    reply?: FormReply | null;
    defaultValue?: Partial<Record<Name, string>>;
    required?: readonly Name[];
  },
): [PlainFormState, Record<Name, PlainFieldState>] {
  const errors = options.reply?.error ?? {};
  const values = options.reply?.initialValue ?? options.defaultValue ?? {};
  return [formOf(formId, errors), fieldsOf(formId, options.names, errors, values, options.required ?? [])];
}

/**
 * plainForm with a courtesy check as the shopper types: a field is checked when it is left, checked again at
 * each key once it shows a message, and every field when the form is sent (a message stops the sending; the
 * server checks again whatever the browser did). `validate` is the shared rule's function.
 */
export function useCheckedForm<Name extends string>(
  formId: string,
  options: Parameters<typeof plainForm<Name>>[1] & {
    validate: (values: Record<string, unknown>) => Record<string, string[]>;
  },
) {
  const [errors, setErrors] = useState<Errors>(() => options.reply?.error ?? {});
  // A new answer from the server (a refused save) shows its messages instead of the browser's.
  const [reply, setReply] = useState(options.reply);
  if (reply !== options.reply) {
    setReply(options.reply);
    setErrors(options.reply?.error ?? {});
  }
  const values = options.reply?.initialValue ?? options.defaultValue ?? {};
  const check = (form: HTMLFormElement, names: readonly string[]) => {
    const found = options.validate(Object.fromEntries(new FormData(form)));
    setErrors((shown) => {
      const next = { ...shown };
      for (const name of names) next[name] = found[name];
      return next;
    });
    return found;
  };
  /** The field an event came from, when it is one of the form's. */
  const fieldOf = (target: EventTarget): Name | null => {
    const name = (target as { name?: unknown }).name;
    return (options.names as readonly unknown[]).includes(name) ? (name as Name) : null;
  };
  const handlers = {
    onBlur: (event: FocusEvent<HTMLFormElement>) => {
      const name = fieldOf(event.target);
      if (name) check(event.currentTarget, [name]);
    },
    onInput: (event: FormEvent<HTMLFormElement>) => {
      const name = fieldOf(event.target);
      if (name && errors[name]?.length) check(event.currentTarget, [name]);
    },
    onSubmit: (event: FormEvent<HTMLFormElement>) => {
      const found = check(event.currentTarget, options.names);
      const first = options.names.find((name) => found[name]?.length);
      if (first) {
        event.preventDefault();
        event.currentTarget.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      }
    },
  };
  return [
    formOf(formId, errors),
    fieldsOf(formId, options.names, errors, values, options.required ?? []),
    handlers,
  ] as const;
}
