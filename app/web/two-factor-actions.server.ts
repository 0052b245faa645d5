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
import { twoFactorRequiredFor } from "./two-factor-gate.server";

/**
 * The "Two-factor sign-in" section of the shopper's Settings tab and the admin's account page:
 * what it shows, and its forms' server half (plain posts with an `intent`, POST/redirect/GET, so
 * without JavaScript too). The two forms that make backup codes answer with the page itself, the
 * codes in the action's data: they are shown once, from the server's answer, and never stored
 * anywhere to be read again (no cookie, no URL). The rules are app/services/two-factor.server.ts's,
 * as the API's are.
 */

export interface TwoFactorSection {
  status: TwoFactorStatus;
  /** While an enrolment awaits its first code: the secret as text and its QR code (an SVG element). */
  enrolment: { secret: string; qrSvg: string } | null;
  /** TWO_FACTOR=required and a back-office person: they must turn it on. */
  required: boolean;
}

/** A refused form of the section: which one, and why. */
export interface TwoFactorRefusal {
  twoFactorForm: { intent: string; error: string };
}

/** The answer of a form that made backup codes: the page shows them this once. */
export interface NewBackupCodes {
  newBackupCodes: { message: string; codes: string[] };
}

export async function loadTwoFactorSection(user: SessionUser): Promise<TwoFactorSection> {
  const [status, enrolment] = await Promise.all([getTwoFactorStatus(user.id), pendingEnrolment(user)]);
  return {
    status,
    enrolment: enrolment ? { secret: enrolment.secret, qrSvg: enrolment.qrSvg } : null,
    required: twoFactorRequiredFor(user),
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
    return data<TwoFactorRefusal>(
      { twoFactorForm: { intent, error: error.message } },
      { status: error.status, headers: error.headers },
    );
  };
  return runOrRefuse(async () => {
    const by = auditByOf(user, context);
    if (intent === TWO_FACTOR_INTENTS.start) {
      await startEnrolment(user, { password: formData.get("password") ?? "" });
      return redirectWithFlash(request, backTo, { type: "success", message: TWO_FACTOR_TEXT.started });
    }
    if (intent === TWO_FACTOR_INTENTS.cancel) {
      await cancelEnrolment(user.id);
      return redirectWithFlash(request, backTo, { type: "success", message: TWO_FACTOR_TEXT.cancelled });
    }
    if (intent === TWO_FACTOR_INTENTS.confirm) {
      const { backupCodes } = await confirmEnrolment(user, formData.get("code"), by);
      return data<NewBackupCodes>({
        newBackupCodes: { message: TWO_FACTOR_TEXT.enabled, codes: backupCodes },
      });
    }
    if (intent === TWO_FACTOR_INTENTS.backupCodes) {
      const { backupCodes } = await regenerateBackupCodes(user, formData.get("code"), by);
      return data<NewBackupCodes>({
        newBackupCodes: { message: TWO_FACTOR_TEXT.newBackupCodes, codes: backupCodes },
      });
    }
    await disableTwoFactor(user, formData.get("code"), by);
    return redirectWithFlash(request, backTo, { type: "success", message: TWO_FACTOR_TEXT.disabled });
  }, refuse);
}
