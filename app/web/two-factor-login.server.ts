import { answerChallenge, startChallenge } from "~/services/two-factor-challenge.server";
import { isTwoFactorEnabled } from "~/services/two-factor.server";
import type { SessionUser } from "~/services/users.server";
import { clearChallenge, readChallenge, storeChallenge } from "./two-factor-challenge-cookie.server";
import { joinVisitorCart } from "./guest-cart.server";
import { createUserSession } from "./session.server";

/**
 * The step after a right password, for the sign-in page and `POST /api/auth/login` alike: a
 * session when the person has no second factor, otherwise a challenge (its cookie, no session)
 * that the code page or `POST /api/auth/two-factor` completes.
 */

/** The sign-in page's second step: the code form. */
export const TWO_FACTOR_PAGE = "/auth/two-factor";

/** Login's answer, and the code step's when it completes a sign-in. */
export const SIGNED_IN_MESSAGE = "Logged in successfully";

/** Registration's answer (API.md: no session starts). */
export const REGISTERED_MESSAGE = "Registration successful";

/** The signed-in user as login, the code step and check-auth answer them: one shape, built here. */
export type SignedInUserView = SessionUser & { twoFactorEnabled: boolean };

export function signedInUserView(user: SessionUser, twoFactorEnabled: boolean): SignedInUserView {
  return { ...user, twoFactorEnabled };
}

/** A sign-in's answer: the session's cookie and the visitor's cart taken in (app/web/guest-cart.server.ts). */
export interface SignedIn {
  user: SignedInUserView;
  setCookies: string[];
  /** "Logged in successfully", and what became of the visitor's cart when a line of it was capped. */
  message: string;
}

export type PasswordSignIn = ({ step: "signed-in" } & SignedIn) | { step: "code-needed"; setCookie: string };

async function signIn(
  request: Request,
  user: SignedInUserView,
  otherCookies: string[] = [],
): Promise<SignedIn> {
  const session = await createUserSession(user.id);
  const joined = await joinVisitorCart(request, user.id);
  return {
    user,
    setCookies: [session, ...otherCookies, ...joined.setCookies],
    message: joined.note ? `${SIGNED_IN_MESSAGE}. ${joined.note}` : SIGNED_IN_MESSAGE,
  };
}

export async function continueSignIn(request: Request, user: SessionUser): Promise<PasswordSignIn> {
  if (await isTwoFactorEnabled(user.id)) {
    return { step: "code-needed", setCookie: await storeChallenge(await startChallenge(user.id)) };
  }
  return { step: "signed-in", ...(await signIn(request, signedInUserView(user, false))) };
}

/** Whether this request carries a challenge cookie (the code page is for those only). */
export async function hasChallenge(request: Request): Promise<boolean> {
  return (await readChallenge(request)) !== null;
}

/**
 * Completes the challenge of this request's cookie with `code`: the user, with the Set-Cookie
 * values that start their session and end the challenge. Throws the challenge's refusals.
 */
export async function completeSignIn(request: Request, code: string): Promise<SignedIn> {
  const user = await answerChallenge(await readChallenge(request), code);
  return signIn(request, signedInUserView(user, true), [await clearChallenge()]);
}
