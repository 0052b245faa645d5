/**
 * What the audit pages show and the admin forms need, safe in the browser
 * (the rules live in app/services/audit.server.ts).
 */

export const AUDIT_ENTITIES = [
  "product",
  "order",
  "feature",
  "user",
  "shippingMethod",
  "discountCode",
  "taxRate",
  "webhookEndpoint",
  "apiKey",
  "twoFactor",
  "settings",
  "giftCard",
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/**
 * create, update, delete; `refund` for money sent back; `promote` for a user made admin; `revoke` for an API
 * key; `export` and `erase` for a shopper's data handed out or erased on their request.
 */
export const AUDIT_ACTIONS = [
  "create",
  "update",
  "delete",
  "refund",
  "promote",
  "revoke",
  "export",
  "erase",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** A stale edit's answer (409): the page shows it with a link that reloads the thing. */
export const VERSION_CONFLICT_MESSAGE = "Changed by someone else: reload and try again";

export interface AuditEntryView {
  _id: string;
  at: string;
  actor: { id: string | null; userName: string };
  action: string;
  entity: string;
  entityId: string;
  changes: Record<string, [unknown, unknown]>;
  ip: string | null;
}

/** A value of `changes` as text: "—" for none, objects (a variant added or removed) as their fields. */
export function auditValueText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "object")
    return Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) => `${key} ${auditValueText(inner)}`)
      .join(", ");
  return String(value);
}

/** "2026-11-24 09:30 UTC": the same text on the server and in the browser (no time zone guess). */
export function auditTimeText(at: string): string {
  return `${at.replace("T", " ").slice(0, 16)} UTC`;
}
