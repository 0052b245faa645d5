import { data } from "react-router";
import type { AppError } from "~/lib/server/errors.server";
import type { AdminFormReply, SentValues } from "~/lib/shared/admin-form";
import type { PageData } from "./form-action.server";

/**
 * The delivery and discount admin pages' plain forms: a refusal renders the
 * page again (with its status) with the values the admin sent and each
 * field's message beside it, with or without JavaScript. The rules are the
 * services'; this only carries their answer back to the form.
 */

/** Every field of the form as sent: one string, or every value of a repeated field (checkboxes). */
export function sentValuesOf(formData: FormData, repeated: readonly string[] = []): SentValues {
  const values: SentValues = {};
  for (const key of new Set(formData.keys())) {
    if (key === "intent" || key === "id") continue;
    values[key] = repeated.includes(key) ? formData.getAll(key).map(String) : String(formData.get(key) ?? "");
  }
  for (const key of repeated) values[key] ??= [];
  return values;
}

export function refuseAdminForm(form: string, values: SentValues, error: AppError): PageData<AdminFormReply> {
  const errors = error.fieldErrors ?? {};
  return data<AdminFormReply>(
    { form, values, errors, message: Object.keys(errors).length ? null : error.message },
    { status: error.status },
  );
}
