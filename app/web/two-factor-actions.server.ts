import type { RouterContextProvider } from "react-router";
import { data } from "react-router";
import type { AppError } from "~/lib/server/errors.server";
import { TWO_FACTOR_INTENTS, TWO_FACTOR_TEXT } from "~/lib/shared/two-factor";
import {
  cancelEnrolment,
  confirmEnrolment,
  disableTwoFactor,
  getTwoFactorStatus,
  pendingEnrolment,
  regenerateBackupCodes,
  startEnrolment,
  type TwoFactorStatus,
} from "~/services/two-factor.server";
import type { SessionUser } from "~/services/users.server";
import { auditByOf } from "./audit.server";
import { runOrRefuse } from "./form-action.server";
import { redirectWithFlash } from "./session.server";
import { clearNewBackupCodes, readNewBackupCodes, storeNewBackupCodes } from "./two-factor-cookies.server";
import { twoFactorRequiredFor } from "./two-factor-gate.server";

/**
 * The "Two-factor sign-in" section of the shopper's Settings tab and the admin's account page:
 * what it shows, and its forms' server half (plain posts with an `intent`, POST/redirect/GET, so
 * without JavaScript too). The rules are app/services/two-factor.server.ts's, as the API's are.
 */

export interface TwoFactorSection {
  status: TwoFactorStatus;
  /** While an enrolment awaits its first code: the secret as text and its QR code (an SVG element). */
  enrolment: { secret: string; qrSvg: string } | null;
  /** The backup codes, on the one page view right after confirming; null afterwards. */
  newBackupCodes: string[] | null;
  /** TWO_FACTOR=required and a back-office person: they must turn it on. */
  required: boolean;
}

export interface TwoFactorActionData {
  twoFactorForm: { intent: string; error: string };
}

/** The section's data, and the Set-Cookie that clears the one-time backup codes once they are read. */
export async function loadTwoFactorSection(
  request: Request,
  user: SessionUser,
): Promise<{ section: TwoFactorSection; setCookie: string | null }> {
  const [status, enrolment, newBackupCodes] = await Promise.all([
    getTwoFactorStatus(user.id),
    pendingEnrolment(user),
    readNewBackupCodes(request, user.id),
  ]);
  return {
    section: {
      status,
      enrolment: enrolment ? { secret: enrolment.secret, qrSvg: enrolment.qrSvg } : null,
      newBackupCodes: status.enabled ? newBackupCodes : null,
      required: twoFactorRequiredFor(user),
    },
    setCookie: newBackupCodes ? await clearNewBackupCodes() : null,
  };
}

export function isTwoFactorIntent(formData: FormData): boolean {
  const intent = formData.get("intent");
  return Object.values(TWO_FACTOR_INTENTS).some((value) => value === intent);
}

export async function handleTwoFactorAction(
  request: Request,
  user: SessionUser,
  formData: FormData,
  pageUrl: string,
  context: Readonly<RouterContextProvider> | undefined,
) {
  const intent = String(formData.get("intent"));
  const backTo = `${pageUrl}#two-factor`;
  const refuse = async (error: AppError) => {
    // A state that changed meanwhile (already on, not started): the page as it is now says why.
    if (error.status === 409)
      return redirectWithFlash(request, backTo, { type: "error", message: error.message });
    return data<TwoFactorActionData>(
      { twoFactorForm: { intent, error: error.message } },
      { status: error.status, headers: error.headers },
    );
  };
  return runOrRefuse(async () => {
    const by = auditByOf(user, context);
    if (intent === TWO_FACTOR_INTENTS.start) {
      await startEnrolment(user);
      return redirectWithFlash(request, backTo, { type: "success", message: TWO_FACTOR_TEXT.started });
    }
    if (intent === TWO_FACTOR_INTENTS.cancel) {
      await cancelEnrolment(user.id);
      return redirectWithFlash(request, backTo, { type: "success", message: TWO_FACTOR_TEXT.cancelled });
    }
    if (intent === TWO_FACTOR_INTENTS.confirm) {
      const { backupCodes } = await confirmEnrolment(user, formData.get("code"), by);
      return redirectWithFlash(
        request,
        backTo,
        { type: "success", message: TWO_FACTOR_TEXT.enabled },
        { headers: { "Set-Cookie": await storeNewBackupCodes(user.id, backupCodes) } },
      );
    }
    if (intent === TWO_FACTOR_INTENTS.backupCodes) {
      const { backupCodes } = await regenerateBackupCodes(user, formData.get("code"), by);
      return redirectWithFlash(
        request,
        backTo,
        { type: "success", message: TWO_FACTOR_TEXT.newBackupCodes },
        { headers: { "Set-Cookie": await storeNewBackupCodes(user.id, backupCodes) } },
      );
    }
    await disableTwoFactor(user, formData.get("code"), by);
    return redirectWithFlash(request, backTo, { type: "success", message: TWO_FACTOR_TEXT.disabled });
  }, refuse);
}
