import { z } from "zod";
import { ADDRESS_LABELS, ADDRESS_MAX_LENGTH, addressMessages, type AddressField } from "./address-rules";
import { controlCharacterMessage, hasControlCharacter } from "./text-rules";

/**
 * The address form's schema, on the server (the HTML actions through conform,
 * the JSON API). Its rules and messages are ./address-rules', which the
 * browser imports instead of this module (zod stays off the pages; docs/decisions/0008).
 */

export {
  ADDRESS_FIELDS,
  ADDRESS_INTENTS,
  ADDRESS_MAX_LENGTH,
  EDIT_ADDRESS_PARAM,
  MAX_ADDRESSES,
  MAX_ADDRESSES_MESSAGE,
  type AddressField,
} from "./address-rules";

function requiredText(field: AddressField) {
  const required = addressMessages.required(field);
  return z
    .string({ message: required })
    .trim()
    .min(1, required)
    .max(ADDRESS_MAX_LENGTH[field], addressMessages.tooLong(field))
    .refine((value) => !hasControlCharacter(value), controlCharacterMessage(ADDRESS_LABELS[field]));
}

export const addressInputSchema = z.object({
  address: requiredText("address"),
  city: requiredText("city"),
  pincode: requiredText("pincode"),
  phone: requiredText("phone"),
  notes: requiredText("notes"),
});
export type AddressInput = z.infer<typeof addressInputSchema>;
