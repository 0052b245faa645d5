import { getConfig } from "~/lib/server/config.server";
import { forbidden } from "~/lib/server/errors.server";
import { oncePerRequest } from "~/lib/server/request-scope.server";
import { isBackOffice } from "~/lib/shared/permissions";
import { TWO_FACTOR_TEXT } from "~/lib/shared/two-factor";
import { isTwoFactorEnabled } from "~/services/two-factor.server";
import type { SessionUser } from "~/services/users.server";
import { redirectWithFlash } from "./session.server";

/**
 * TWO_FACTOR=required: a back-office person (admin or staff) without two-factor sign-in may open
 * nothing of the back office but the page where they turn it on; the API answers their calls 403.
 * The base guards (requireAdmin, requireApiAdmin in auth.server.ts) ask here, so every back-office
 * page and call is covered, and so is every guard built on them. Shoppers choose freely.
 */

/** The back-office page where a person turns two-factor sign-in on. */
export const TWO_FACTOR_ENROL_PAGE = "/admin/account";

/** Whether this request's user must turn two-factor sign-in on before anything else (asked once a request). */
function mustEnrol(user: SessionUser): Promise<boolean> {
  if (getConfig().twoFactor !== "required" || !isBackOffice(user)) return Promise.resolve(false);
  return oncePerRequest(`two-factor-enabled:${user.id}`, () => isTwoFactorEnabled(user.id)).then(
    (enabled) => !enabled,
  );
}

/** The page's path, for a document request and for its data request (`/admin/account.data`) alike. */
function pagePathOf(request: Request): string {
  return new URL(request.url).pathname.replace(/\.data$/, "").replace(/\/+$/, "") || "/";
}

/** Page guard: sends a back-office person who must enrol to the enrolment page (which stays open). */
export async function enforceTwoFactorForPage(request: Request, user: SessionUser): Promise<void> {
  if (!(await mustEnrol(user))) return;
  if (pagePathOf(request) === TWO_FACTOR_ENROL_PAGE) return;
  throw await redirectWithFlash(request, `${TWO_FACTOR_ENROL_PAGE}#two-factor`, {
    type: "error",
    message: TWO_FACTOR_TEXT.requiredPage,
  });
}

/** API guard: 403 "Two-factor sign-in is required" for a back-office person who must enrol. */
export async function enforceTwoFactorForApi(user: SessionUser): Promise<void> {
  if (await mustEnrol(user)) throw forbidden(TWO_FACTOR_TEXT.required);
}

/** Whether a back-office person must turn two-factor sign-in on now (the account page says so). */
export function twoFactorRequiredFor(user: SessionUser): boolean {
  return getConfig().twoFactor === "required" && isBackOffice(user);
}
