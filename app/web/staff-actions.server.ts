import { data } from "react-router";
import type { AdminFormReply } from "~/lib/shared/admin-form";
import { createApiKey, revokeApiKey } from "~/services/api-keys.server";
import type { AuditBy } from "~/services/audit.server";
import {
  inviteStaff,
  removeStaff,
  resetStaffTwoFactor,
  STAFF_TEXT,
  updateStaff,
} from "~/services/staff.server";
import { TWO_FACTOR_TEXT } from "~/lib/shared/two-factor";
import type { SessionUser } from "~/services/users.server";
import { refuseAdminForm, sentValuesOf } from "./admin-form.server";
import { redirectWithRefusal, runOrRefuse, type PageData } from "./form-action.server";
import { redirectWithFlash } from "./session.server";

/**
 * The staff page's plain forms (app/routes/admin.staff.tsx): the same service
 * calls as `/api/admin/staff` and `/api/admin/api-keys`. Success redirects
 * back with a flash, except a new API key, whose secret is answered with the
 * page this once and never stored; a refused form renders the page again with
 * its status and messages; a refused button redirects with the reason.
 */

export const STAFF_PAGE = "/admin/staff";

/** The new key's name and secret, for the page's one showing of it. */
export interface CreatedKeyReply {
  created: { name: string; secret: string };
}

export async function handleStaffAction(
  request: Request,
  actor: SessionUser,
  by: AuditBy,
  formData: FormData,
): Promise<Response | PageData<AdminFormReply> | PageData<CreatedKeyReply>> {
  const intent = String(formData.get("intent") ?? "");
  const id = String(formData.get("id") ?? "");
  const permissions = formData.getAll("permissions").map(String);
  const back = (message: string) => redirectWithFlash(request, STAFF_PAGE, { type: "success", message });
  const refuseWithFlash = (error: Parameters<typeof redirectWithRefusal>[2]) =>
    redirectWithRefusal(request, STAFF_PAGE, error);
  const values = sentValuesOf(formData, ["permissions"]);

  switch (intent) {
    case "invite":
      return runOrRefuse(
        async () => {
          const input = { email: formData.get("email"), userName: formData.get("userName"), permissions };
          const member = await inviteStaff(actor, input, by);
          return back(`${STAFF_TEXT.invited} to ${member.email}`);
        },
        (error) => refuseAdminForm("invite", values, error),
      );
    case "permissions":
      return runOrRefuse(
        async () => {
          await updateStaff(actor, id, { permissions }, by);
          return back(STAFF_TEXT.updated);
        },
        (error) => (error.status === 404 ? refuseWithFlash(error) : refuseAdminForm(id, values, error)),
      );
    case "disable":
    case "enable":
      return runOrRefuse(async () => {
        const member = await updateStaff(actor, id, { disabled: intent === "disable" }, by);
        return back(
          `${member.userName} ${member.disabled ? "is disabled: their sessions and keys ended" : "is enabled"}`,
        );
      }, refuseWithFlash);
    case "remove":
      return runOrRefuse(async () => {
        await removeStaff(actor, id, by);
        return back(STAFF_TEXT.removed);
      }, refuseWithFlash);
    case "reset-two-factor":
      return runOrRefuse(async () => {
        await resetStaffTwoFactor(actor, id, by);
        return back(TWO_FACTOR_TEXT.reset);
      }, refuseWithFlash);
    case "create-key":
      return runOrRefuse(
        async () => {
          const input = { name: formData.get("name"), permissions, expiresAt: formData.get("expiresAt") };
          const key = await createApiKey(actor, input, by);
          return data<CreatedKeyReply>({ created: { name: key.name, secret: key.secret } }, { status: 201 });
        },
        (error) => refuseAdminForm("api-key", values, error),
      );
    case "revoke-key":
      return runOrRefuse(async () => {
        await revokeApiKey(actor, id, by);
        return back("API key revoked: its next call is refused");
      }, refuseWithFlash);
    default:
      return redirectWithFlash(request, STAFF_PAGE, { type: "error", message: "Unknown action" });
  }
}
