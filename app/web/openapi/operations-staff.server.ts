import { z } from "zod";
import { API_KEY_PERMISSIONS, PERMISSIONS } from "~/lib/shared/permissions";
import { createApiKeySchema, inviteStaffSchema, updateStaffSchema } from "~/lib/shared/staff-schemas";
import type { ApiOperation } from "./operation.server";
import { dataEnvelope, messageEnvelope, uuid } from "./schemas.server";

/**
 * Staff and API keys (API.md "Staff, two-factor sign-in, API keys"). The
 * bodies are the schemas the routes validate with (lib/shared/staff-schemas.ts).
 */

const instant = z.string().meta({ format: "date-time" });

const staffMemberSchema = z
  .object({
    _id: uuid,
    userName: z.string(),
    email: z.string(),
    role: z.enum(["admin", "staff"]),
    permissions: z.array(z.enum(PERMISSIONS)).meta({ description: "An admin holds every one" }),
    disabled: z.boolean(),
    invitationPending: z.boolean().meta({ description: "Invited, and the set-a-password link not used yet" }),
    twoFactorEnabled: z
      .boolean()
      .meta({ description: "Two-factor sign-in is on (DELETE /api/admin/staff/{id}/two-factor resets it)" }),
    createdAt: instant,
  })
  .meta({ id: "StaffMember" });

const apiKeySchema = z
  .object({
    _id: uuid,
    name: z.string(),
    lastFour: z.string().meta({ description: "The secret's last four characters, to tell keys apart" }),
    permissions: z.array(z.enum(API_KEY_PERMISSIONS)),
    createdBy: z.object({ id: uuid, userName: z.string() }),
    createdAt: instant,
    expiresAt: instant.nullable(),
    lastUsedAt: instant.nullable().meta({ description: "Kept to the minute" }),
  })
  .meta({ id: "ApiKey" });

const NOT_JSON = "The body is not JSON";

export const STAFF_OPERATIONS: ApiOperation[] = [
  {
    method: "get",
    path: "/api/admin/staff",
    tag: "Staff and API keys",
    summary: "The back office's people: admins, then staff",
    access: "admin",
    success: { 200: { description: "The people", schema: dataEnvelope(z.array(staffMemberSchema)) } },
    errors: {},
  },
  {
    method: "post",
    path: "/api/admin/staff",
    tag: "Staff and API keys",
    summary: "Invite a staff member: a mail with a link to choose a password, valid 72 hours",
    access: "admin",
    body: inviteStaffSchema,
    success: { 201: { description: "Invited", schema: dataEnvelope(staffMemberSchema) } },
    errors: {
      400: "Invalid fields (`errors` names them) or malformed JSON",
      403: "A permission the caller does not hold, or the caller lacks `staff`",
      409: "An account with this email already exists",
      415: NOT_JSON,
    },
  },
  {
    method: "put",
    path: "/api/admin/staff/{id}",
    tag: "Staff and API keys",
    summary: "Change a person's permissions or disable them (their sessions and keys stop at once)",
    access: "admin",
    body: updateStaffSchema,
    success: { 200: { description: "The person", schema: dataEnvelope(staffMemberSchema) } },
    errors: {
      400: "Invalid fields, or permissions for an admin (who holds every one)",
      403: "Oneself, a permission the caller does not hold (granted, taken away, or handed back by enabling), or an admin changed by a staff member",
      404: "Nobody of the back office has this id",
      409: "The shop's last admin",
      415: NOT_JSON,
    },
  },
  {
    method: "delete",
    path: "/api/admin/staff/{id}",
    tag: "Staff and API keys",
    summary: "Remove a person from the back office (their account, sessions and keys)",
    access: "admin",
    success: { 200: { description: "Removed", schema: messageEnvelope } },
    errors: {
      403: "Oneself, or an admin removed by a staff member",
      404: "Nobody of the back office has this id",
      409: "The shop's last admin, or a person with orders (disable them instead)",
    },
  },
  {
    method: "get",
    path: "/api/admin/api-keys",
    tag: "Staff and API keys",
    summary: "The API keys that still work (never their secrets)",
    access: "admin",
    success: { 200: { description: "The keys", schema: dataEnvelope(z.array(apiKeySchema)) } },
    errors: {},
  },
  {
    method: "post",
    path: "/api/admin/api-keys",
    tag: "Staff and API keys",
    summary: "Make an API key: its secret is answered this once and stored only as a hash",
    access: "admin",
    body: createApiKeySchema,
    success: {
      201: {
        description: "The key and its secret",
        schema: z.object({
          success: z.literal(true),
          message: z.string(),
          data: apiKeySchema.extend({
            secret: z.string().meta({ description: "`shop_sk_…`: send as `Authorization: Bearer <secret>`" }),
          }),
        }),
      },
    },
    errors: {
      400: "Invalid fields (`errors` names them: no permission, `staff`, a past expiry) or malformed JSON",
      403: "A permission the caller does not hold",
      415: NOT_JSON,
    },
  },
  {
    method: "delete",
    path: "/api/admin/api-keys/{id}",
    tag: "Staff and API keys",
    summary: "Revoke an API key: its next call answers 401",
    access: "admin",
    success: { 200: { description: "Revoked", schema: messageEnvelope } },
    errors: {
      403: "The key holds a permission the caller does not (admins revoke any)",
      404: "Unknown or already revoked key",
    },
  },
];
