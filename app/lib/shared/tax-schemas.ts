import { z } from "zod";
import { amount, blankToUndefined, listOf } from "./delivery-schemas";
import { parseRatePercent, TAX_APPLIES_TO } from "./order-tax";
import { controlCharacterMessage, hasControlCharacter } from "./text-rules";

/**
 * A tax rate as the admin's form and the API send it (API.md, "Sales tax and
 * VAT"): messages in the caller's words, amounts in cents, the rate in
 * millionths. Whether a country or region code exists is the server's check
 * (app/services/address-destination.server.ts, which holds the ISO lists).
 */

export interface TaxRateJson {
  _id: string;
  name: string;
  country: string;
  /** null: the whole country. */
  region: string | null;
  /** Percent, up to four decimals. */
  rate: number;
  appliesTo: string[];
  /** A unit price paid below it is not taxed by this rate; null: no threshold. */
  exemptBelow: number | null;
  /** One of the demo data's example rates. */
  example: boolean;
  version: number;
}

const RATE_MESSAGE = "rate must be a percent from 0 to 100 with at most four decimals, such as 8.875";
const COUNTRY_MESSAGE = "country must be a two-letter code such as US";

const code = (message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .transform((value) => value.toUpperCase())
    .refine((value) => new RegExp(`^[A-Z0-9]{1,${max}}$`).test(value), { message });

export const taxRateInputSchema = z.object({
  name: z
    .string({ error: "name is required, such as New York State" })
    .trim()
    .min(1, { error: "name is required, such as New York State" })
    .max(100, { error: "name must be at most 100 characters" })
    .refine((value) => !hasControlCharacter(value), controlCharacterMessage("name")),
  country: code(COUNTRY_MESSAGE, 2)
    .refine((value) => value.length === 2, { message: COUNTRY_MESSAGE })
    .meta({ description: "ISO 3166-1 alpha-2, such as US" }),
  region: z
    .preprocess(
      blankToUndefined,
      code("region must be a state, province or county code such as NY", 3).nullish(),
    )
    .meta({ description: "A subdivision code of the country, such as NY; none: the whole country" }),
  rate: z
    .preprocess(
      (value) => (blankToUndefined(value) === undefined ? undefined : value),
      z
        .unknown()
        .refine((value) => value !== undefined, { message: "rate is required: the percent, such as 8.875" })
        .transform((value, context) => {
          const millionths = parseRatePercent(value);
          if (millionths === null) {
            context.addIssue({ code: "custom", message: RATE_MESSAGE });
            return z.NEVER;
          }
          return millionths;
        }),
    )
    .meta({
      type: ["number", "string"],
      description: "Percent from 0 to 100, up to four decimals, such as 8.875",
    }),
  appliesTo: listOf("appliesTo", TAX_APPLIES_TO).refine((list) => list.length > 0, {
    message: `appliesTo needs at least one of: ${TAX_APPLIES_TO.join(", ")}`,
  }),
  exemptBelow: amount("exemptBelow", { positive: true })
    .nullish()
    .meta({ description: "A unit price paid below it is not taxed by this rate, such as 110" }),
});
export type TaxRateInput = z.infer<typeof taxRateInputSchema>;
