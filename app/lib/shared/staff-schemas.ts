import { z } from "zod";
import { API_KEY_PERMISSIONS, PERMISSIONS, type Permission } from "./permissions";
import { emailField, userNameField } from "./schemas";

/**
 * What the staff page and `/api/admin/staff`, `/api/admin/api-keys` take and show
 * (API.md "Staff, two-factor sign-in, API keys"): one schema per request for
 * the JSON body and the plain form alike. Safe in the browser.
 */

/** A form sends one checkbox value as a string and none as nothing: both become a list. */
const asList = (value: unknown) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

const permissionList = z.preprocess(
  asList,
  z
    .array(z.enum(PERMISSIONS, { error: `Each permission must be one of: ${PERMISSIONS.join(", ")}` }))
    .transform((list) => PERMISSIONS.filter((permission) => list.includes(permission))),
);

export const inviteStaffSchema = z
  .object({
    email: emailField,
    userName: userNameField,
    permissions: permissionList.meta({
      description: `The areas the new staff member may open: any of ${PERMISSIONS.join(", ")}`,
    }),
  })
  .meta({ id: "StaffInvite" });
export type InviteStaffInput = z.infer<typeof inviteStaffSchema>;

/** A form's "true"/"false" (and JSON's booleans). */
const flag = z.preprocess(
  (value) => (value === "true" || value === "on" ? true : value === "false" ? false : value),
  z.boolean({ error: "disabled must be true or false" }),
);

export const updateStaffSchema = z
  .object({
    permissions: permissionList.optional(),
    disabled: flag.optional().meta({ description: "true: the person can no longer sign in or use keys" }),
  })
  .meta({ id: "StaffUpdate" });
export type UpdateStaffInput = z.infer<typeof updateStaffSchema>;

const KEY_NAME_MAX = 60;

/** "2027-01-31" (the end of that day, UTC) or an ISO instant; blank: no expiry. */
const expiry = z.preprocess(
  (value) => (value === "" || value === null ? undefined : value),
  z
    .string({ error: "expiresAt must be a date such as 2027-01-31" })
    .transform((value, context) => {
      const text = /^\d{4}-\d{2}-\d{2}$/.test(value.trim()) ? `${value.trim()}T23:59:59.999Z` : value.trim();
      const at = /^\d{4}-\d{2}-\d{2}T/.test(text) ? new Date(text) : new Date(Number.NaN);
      if (Number.isNaN(at.getTime())) {
        context.addIssue({ code: "custom", message: "expiresAt must be a date such as 2027-01-31" });
        return z.NEVER;
      }
      if (at.getTime() <= Date.now()) {
        context.addIssue({ code: "custom", message: "expiresAt must be in the future" });
        return z.NEVER;
      }
      return at;
    })
    .optional(),
);

export const createApiKeySchema = z
  .object({
    name: z
      .string({ error: "Name is required" })
      .trim()
      .min(1, "Name is required")
      .max(KEY_NAME_MAX, `Name must be at most ${KEY_NAME_MAX} characters`)
      .refine((value) => !/\p{Cc}/u.test(value), "Name must be one line of plain text"),
    permissions: z.preprocess(
      asList,
      z
        .array(
          z.enum(API_KEY_PERMISSIONS, {
            error: `Each permission must be one of: ${API_KEY_PERMISSIONS.join(", ")} (a key never holds staff)`,
          }),
        )
        .min(1, "Choose at least one permission")
        .transform((list) => API_KEY_PERMISSIONS.filter((permission) => list.includes(permission))),
    ),
    expiresAt: expiry.meta({
      description: "Optional: after this instant (or the end of this UTC day) the key answers 401",
    }),
  })
  .meta({ id: "ApiKeyCreate" });
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;

/** How long an invitation's set-a-password link is valid. */
export const INVITE_VALID_HOURS = 72;

/** What an API key's secret looks like: the prefix tells a leaked key apart in logs and secret scanners. */
export const API_KEY_PREFIX = "shop_sk_";

/** A person of the shop's team, as the staff page and `/api/admin/staff` show them. */
export interface StaffMemberView {
  _id: string;
  userName: string;
  email: string;
  role: "admin" | "staff";
  permissions: Permission[];
  disabled: boolean;
  /** Invited, and the set-a-password link not used yet. */
  invitationPending: boolean;
  /** Two-factor sign-in is on (a colleague with `staff` may reset it when the phone is lost). */
  twoFactorEnabled: boolean;
  createdAt: string;
}

/** An API key as the staff page and `/api/admin/api-keys` list it (never its secret). */
export interface ApiKeyView {
  _id: string;
  name: string;
  lastFour: string;
  permissions: Permission[];
  createdBy: { id: string; userName: string };
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}
