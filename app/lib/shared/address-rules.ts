/**
 * The address form's rules (SPEC §5: all five fields, trimmed and non-empty)
 * as data, without zod, so that the browser can use them (docs/decisions/0008): the
 * server's schema (./address-schema) is built from the same table and
 * messages, and always checks again. The maximum lengths are the columns'
 * (db/migrations/0001).
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

export const ADDRESS_LABELS: Record<AddressField, string> = {
  address: "Address",
  city: "City",
  pincode: "Pincode",
  phone: "Phone",
  notes: "Notes",
};

export const addressMessages = {
  required: (field: AddressField) => `${ADDRESS_LABELS[field]} is required`,
  tooLong: (field: AddressField) =>
    `${ADDRESS_LABELS[field]} must be at most ${ADDRESS_MAX_LENGTH[field]} characters`,
};

/**
 * The browser's courtesy check of the address form: the first problem of each
 * field, in the server's words (the schema applies the same rules).
 */
export function addressFieldErrors(values: Record<string, unknown>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const field of ADDRESS_FIELDS) {
    const value = typeof values[field] === "string" ? (values[field] as string).trim() : "";
    if (!value) errors[field] = [addressMessages.required(field)];
    else if (value.length > ADDRESS_MAX_LENGTH[field]) errors[field] = [addressMessages.tooLong(field)];
  }
  return errors;
}

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
