import { parse, type Submission } from "@conform-to/react";
import * as z from "zod/mini";
import { fieldErrorsOf } from "./schemas";

/**
 * conform's submission of a form checked by a zod schema, in the browser and
 * on the server alike. It stands in for `@conform-to/zod`'s `parseWithZod`,
 * whose form-value coercion imports zod's whole classic API (about 90 KB gzip)
 * into every page that uses it (docs/decisions/0008); the schemas of the forms that check
 * in the browser are `zod/mini` (./schemas, ./account-schemas).
 *
 * The forms are flat text fields, so the coercion is the one rule they need
 * from it: an empty field counts as missing (the "… is required" message).
 */
export function parseWithSchema<Schema extends z.core.$ZodType<Record<string, unknown>>>(
  formData: FormData | URLSearchParams,
  { schema }: { schema: Schema },
): Submission<z.output<Schema>, string[]> {
  return parse<z.output<Schema>, string[]>(formData, {
    resolve(payload) {
      const value = Object.fromEntries(
        Object.entries(payload).map(([name, field]) => [name, field === "" ? undefined : field]),
      );
      const result = z.safeParse(schema, value);
      return result.success ? { value: result.data } : { error: fieldErrorsOf(result.error, "") };
    },
  });
}
