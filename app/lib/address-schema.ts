import { z } from "zod";

/**
 * The address form's rules (SPEC §5: all five fields, trimmed and non-empty),
 * shared by the browser (conform's inline errors) and the server, which always
 * checks again. The maximum lengths are the columns' (db/migrations/0001).
 */

export const ADDRESS_FIELDS = ["address", "city", "pincode", "phone", "notes"] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

export const ADDRESS_MAX_LENGTH: Record<AddressField, number> = {
  address: 200,
  city: 100,
  pincode: 20,
  phone: 30,
  notes: 500,
};

const LABELS: Record<AddressField, string> = {
  address: "Address",
  city: "City",
  pincode: "Pincode",
  phone: "Phone",
  notes: "Notes",
};

function requiredText(field: AddressField) {
  const label = LABELS[field];
  const max = ADDRESS_MAX_LENGTH[field];
  return z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);
}

export const addressInputSchema = z.object({
  address: requiredText("address"),
  city: requiredText("city"),
  pincode: requiredText("pincode"),
  phone: requiredText("phone"),
  notes: requiredText("notes"),
});
export type AddressInput = z.infer<typeof addressInputSchema>;

/** The spec's limit (SPEC §9) and its message (SPEC §5, API.md: 409). */
export const MAX_ADDRESSES = 3;
export const MAX_ADDRESSES_MESSAGE = "You can add max 3 addresses";

/** The `intent` of the address manager's forms, so that a page with other forms can tell them apart. */
export const ADDRESS_INTENTS = {
  add: "addAddress",
  update: "updateAddress",
  delete: "deleteAddress",
} as const;

/** The search param that holds the address being edited (the edit form is a URL state). */
export const EDIT_ADDRESS_PARAM = "editAddress";
