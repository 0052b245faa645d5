import type { RouterContextProvider } from "react-router";
import { requestInfoOf } from "./request.server";
import type { AuditBy } from "~/services/audit.server";
import type { SessionUser } from "~/services/users.server";

/**
 * Who makes an admin change and from where, for its audit entry: the signed-in
 * admin, and the client's address as the HTTP server computed it for the
 * request log (X-Forwarded-For only with TRUST_PROXY).
 */
export function auditByOf(user: SessionUser, context: Readonly<RouterContextProvider> | undefined): AuditBy {
  const ip = requestInfoOf(context)?.clientIp;
  return { actor: { id: user.id, userName: user.userName }, ip: ip && ip !== "unknown" ? ip : null };
}
