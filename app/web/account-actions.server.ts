import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import { parseWithSchema } from "~/lib/shared/form-schema";
import type { SessionUser } from "~/services/users.server";
import {
  ACCOUNT_TEXT,
  changePassword,
  changeUserName,
  countOtherSessions,
  signOutOtherSessions,
} from "~/services/account.server";
import { ACCOUNT_INTENTS, changePasswordSchema, changeUserNameSchema } from "~/lib/shared/account-schemas";
import { getDb } from "~/models/db.server";
import type { AppError } from "~/lib/server/errors.server";
import { replyToRefusal, runOrRefuse, type PageData } from "./form-action.server";
import { getSessionId, redirectWithFlash } from "./session.server";

/**
 * The account settings' server half, for the shopper's account tab and the
 * admin's account page. The rules live in app/services/account.server.ts,
 * like the JSON API's; successes redirect with a flash message, refusals
 * answer with conform's reply for the form that was sent.
 */

interface AccountSettingsData {
  userName: string;
  email: string;
  otherSessions: number;
  /** Changes with every saved change: the page keys the forms on it so that they start afresh. */
  version: string;
}

interface AccountActionData {
  accountForm: { intent: string; result: SubmissionResult<string[]> };
}

export async function loadAccountSettings(request: Request, user: SessionUser): Promise<AccountSettingsData> {
  const [otherSessions, row] = await Promise.all([
    countOtherSessions(user.id, await getSessionId(request)),
    getDb().models.User.findByPk(user.id, { attributes: ["updatedAt"], raw: true }),
  ]);
  return {
    userName: user.userName,
    email: user.email,
    otherSessions,
    version: row ? new Date(row.updatedAt).toISOString() : "",
  };
}

export function isAccountIntent(formData: FormData): boolean {
  const intent = formData.get("intent");
  return Object.values(ACCOUNT_INTENTS).some((value) => value === intent);
}

function reply(intent: string, result: SubmissionResult<string[]>, status: number, headers?: HeadersInit) {
  return data<AccountActionData>({ accountForm: { intent, result } }, { status, headers });
}

export async function handleAccountAction(
  request: Request,
  user: SessionUser,
  formData: FormData,
  redirectTo: string,
): Promise<Response | PageData<AccountActionData>> {
  const intent = String(formData.get("intent"));
  const sessionId = await getSessionId(request);
  if (intent === ACCOUNT_INTENTS.signOutOthers) {
    const { endedSessions } = await signOutOtherSessions(user.id, sessionId);
    return redirectWithFlash(request, redirectTo, {
      type: "success",
      message: `${ACCOUNT_TEXT.signedOutOthers} (${endedSessions} ended).`,
    });
  }
  const schema = intent === ACCOUNT_INTENTS.userName ? changeUserNameSchema : changePasswordSchema;
  const submission = parseWithSchema(formData, { schema });
  const hideFields = ["currentPassword", "newPassword"];
  if (submission.status !== "success") return reply(intent, submission.reply({ hideFields }), 400);
  const refuse = (error: AppError) => {
    const { result, init } = replyToRefusal(submission, error, { hideFields });
    return reply(intent, result, init.status, init.headers);
  };
  return runOrRefuse(async () => {
    if (intent === ACCOUNT_INTENTS.userName) {
      await changeUserName(user.id, submission.value);
      return await redirectWithFlash(request, redirectTo, {
        type: "success",
        message: ACCOUNT_TEXT.userNameChanged,
      });
    }
    await changePassword(user.id, sessionId, submission.value);
    return await redirectWithFlash(request, redirectTo, {
      type: "success",
      message: ACCOUNT_TEXT.passwordChanged,
    });
  }, refuse);
}
