import { redirect } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { SessionUser } from "~/services/users.server";
import { verifyLogin } from "~/services/users.server";
import { AppError, badRequest, forbidden, unauthorized } from "~/lib/server/errors.server";
import { recordLoginFailureMetric } from "~/lib/server/metrics.server";
import { beginLoginAttempt } from "~/services/rate-limit.server";
import { fieldErrorsOf, loginSchema } from "~/lib/shared/schemas";
import { holds, isBackOffice, missingPermissionMessage, type Permission } from "~/lib/shared/permissions";
import { type ApiKeyCaller, consumeApiKeyCall, resolveApiKey } from "~/services/api-keys.server";
import { currentStoreSettings } from "~/services/store-settings.server";
import type { Access } from "./openapi/operation.server";
import { getSessionUser } from "./session.server";
import { enforceTwoFactorForApi, enforceTwoFactorForPage } from "./two-factor-gate.server";

/**
 * Sign-in with remix-auth's FormStrategy. remix-auth v4 only returns the user;
 * the session (a row in PostgreSQL) is ours: see session.server.ts.
 */

const INVALID_LOGIN_MESSAGE = "Incorrect email or password. Please try again";

const CLIENT_KEY_HEADER = "X-Internal-Client-Key";

const API_KEY_NOT_A_PERSON =
  "An API key calls the back office's operations of its permissions, not a person's own account";

const authenticator = new Authenticator<SessionUser>();
authenticator.use(
  new FormStrategy<SessionUser>(async ({ form, request }) => {
    const parsed = loginSchema.safeParse({ email: form.get("email"), password: form.get("password") });
    if (!parsed.success) throw badRequest("Please check the highlighted fields", fieldErrorsOf(parsed.error));
    const { email, password } = parsed.data;
    const clientKey = request.headers.get(CLIENT_KEY_HEADER) ?? "unknown";
    // The point is taken before the password is checked: parallel guesses cannot overrun the limit.
    const attempt = await beginLoginAttempt(clientKey, email);
    const user = await verifyLogin(email, password);
    if (!user) {
      recordLoginFailureMetric();
      throw new AppError(401, INVALID_LOGIN_MESSAGE);
    }
    await attempt.succeeded();
    return user;
  }),
  "form",
);

/**
 * Checks credentials read from a form or a JSON body. Throws AppError: 400 for
 * invalid fields, 401 for wrong credentials, 429 when rate limited.
 */
export async function authenticateLogin(
  request: Request,
  clientKey: string,
  credentials: { email: unknown; password: unknown },
): Promise<SessionUser> {
  // The strategy reads a form: hand both faces' fields over as one, with the
  // client key that the HTTP server (not a header of the caller) determined.
  const form = new URLSearchParams();
  if (typeof credentials.email === "string") form.set("email", credentials.email);
  if (typeof credentials.password === "string") form.set("password", credentials.password);
  const formRequest = new Request(request.url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", [CLIENT_KEY_HEADER]: clientKey },
    body: form.toString(),
  });
  try {
    return await authenticator.authenticate("form", formRequest);
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    throw cause instanceof AppError ? cause : error;
  }
}

export function homePathFor(user: SessionUser): string {
  return isBackOffice(user) ? "/admin/dashboard" : "/shop/home";
}

function loginRedirect(request: Request, returnTo?: string): never {
  const url = new URL(request.url);
  const back = returnTo ?? `${url.pathname}${url.search}`;
  const search = back && back !== "/" ? `?${new URLSearchParams({ redirectTo: back })}` : "";
  throw redirect(`/auth/login${search}`);
}

/**
 * Page guard: the signed-in user, or a redirect to sign-in that comes back here, or to `returnTo`
 * (a same-site path) for a form that posts to an action of another page and returns to its own.
 */
export async function requireUser(request: Request, returnTo?: string): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) loginRedirect(request, returnTo);
  return user;
}

/**
 * Page guard for /admin: any back-office person (admin or staff); shoppers are
 * sent to the access-denied page. A page of one area asks `requireArea`.
 */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (!isBackOffice(user)) throw redirect("/unauth-page");
  await enforceTwoFactorForPage(request, user);
  return user;
}

/** Page guard for a page of one area: a back-office person without its permission gets the access-denied page. */
export async function requireArea(request: Request, area: Permission): Promise<SessionUser> {
  const user = await requireAdmin(request);
  if (!holds(user, area)) throw redirect("/unauth-page");
  return user;
}

/**
 * Page guard for what the role `admin` alone opens, whatever a staff member's permissions: the payment
 * simulator's dashboard, which stands for the shop's own account at the payment provider (decision 0002).
 * Staff get the access-denied page.
 */
export async function requireAdminRole(request: Request): Promise<SessionUser> {
  const user = await requireAdmin(request);
  if (user.role !== "admin") throw redirect("/unauth-page");
  return user;
}

/** Page guard for /shop: the back office does not shop and goes to its dashboard. */
export async function requireShopper(request: Request, returnTo?: string): Promise<SessionUser> {
  const user = await requireUser(request, returnTo);
  if (isBackOffice(user)) throw redirect("/admin/dashboard");
  return user;
}

/**
 * Page guard for what a stranger may see when the owner opened the storefront (API.md, "Open storefront
 * and guest checkout"): home, listing, product, search, the cart page and the shop's pages. The signed-in
 * shopper; null for a visitor without an account in the open storefront; otherwise as `requireShopper`
 * (members only: a sign-in that comes back here).
 */
export async function shopperOrVisitor(request: Request, returnTo?: string): Promise<SessionUser | null> {
  const user = await getSessionUser(request);
  if (user) {
    if (isBackOffice(user)) throw redirect("/admin/dashboard");
    return user;
  }
  if ((await currentStoreSettings()).storefront === "open") return null;
  loginRedirect(request, returnTo);
}

/** Page guard for /auth: a signed-in user goes home. */
export async function requireAnonymous(request: Request): Promise<void> {
  const user = await getSessionUser(request);
  if (user) throw redirect(homePathFor(user));
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The caller of an `Authorization: Bearer <key>` call, or null for a call without one. The header means
 * the key alone: an unknown, revoked or expired key (or a malformed header) answers 401 whatever else
 * comes along, a session cookie included, and beyond its rate 429.
 */
async function apiKeyCallerOf(request: Request): Promise<ApiKeyCaller | null> {
  const authorization = request.headers.get("Authorization");
  if (authorization === null || !/^Bearer\b/i.test(authorization)) return null;
  const secret = BEARER.exec(authorization)?.[1];
  const caller = secret ? await resolveApiKey(secret) : null;
  if (!caller) throw unauthorized("This API key is unknown, revoked or expired");
  await consumeApiKeyCall(caller.apiKeyId);
  return caller;
}

/**
 * For a person's own calls: a call with an API key is refused (401 for an invalid key, 403 for a valid
 * one), whatever cookie comes along. A key is a program's, for the back office's areas, never a
 * person's own account, cart or orders; the guard of an area (`requireApiArea`) is the one that takes keys.
 */
export async function refuseApiKey(request: Request): Promise<void> {
  if (await apiKeyCallerOf(request)) throw forbidden(API_KEY_NOT_A_PERSON);
}

/** API guard: 401 when not signed in; a call with an API key is refused (`refuseApiKey`). */
export async function requireApiUser(request: Request, unauthorizedMessage?: string): Promise<SessionUser> {
  await refuseApiKey(request);
  const user = await getSessionUser(request);
  if (!user) throw unauthorized(unauthorizedMessage);
  return user;
}

/** API guard: 401 anonymous, 403 for shoppers; any back-office person passes. */
export async function requireApiAdmin(request: Request): Promise<SessionUser> {
  const user = await requireApiUser(request);
  if (!isBackOffice(user)) throw forbidden("Only admins can do this");
  await enforceTwoFactorForApi(user);
  return user;
}

/**
 * API guard for a call of one area. With `Authorization: Bearer <key>` the key
 * alone decides (cookies are not read): 401 for an unknown, revoked or expired
 * key, 429 beyond its rate, 403 without the area's permission. Otherwise the
 * session's person: `requireApiAdmin`, then 403 without the permission.
 * The caller's `userName` is the key's actor name ("Key <name> of <creator>"):
 * its changes are on the audit log under that name.
 */
export async function requireApiArea(request: Request, area: Permission): Promise<SessionUser> {
  const caller = (await apiKeyCallerOf(request)) ?? (await requireApiAdmin(request));
  if (!holds(caller, area)) throw forbidden(missingPermissionMessage(area));
  return caller;
}

/**
 * API guard for a shopper's own data: 401 anonymous, 403 for admins (they do
 * not shop) and for a `userId` that is not the caller's.
 */
export async function requireApiShopper(
  request: Request,
  userId?: unknown,
  unauthorizedMessage?: string,
): Promise<SessionUser> {
  const user = await requireApiUser(request, unauthorizedMessage);
  if (isBackOffice(user)) throw forbidden("Admins cannot use the shopper's cart, addresses or orders");
  return requireOwnData(user, userId);
}

/** A shopper's own data only: 403 for a `userId` that is not the caller's (none sent: their own). */
export function requireOwnData(user: SessionUser, userId: unknown): SessionUser {
  if (userId !== undefined && userId !== user.id) throw forbidden("You can only access your own data");
  return user;
}

/**
 * The guard of an API operation's declared access (app/web/openapi/operation.server.ts): nobody for a
 * public one, else the caller, refused as the guards above refuse. `unauthorizedMessage` is the 401's
 * message when nobody is signed in.
 */
export async function requireApiAccess(
  request: Request,
  access: Access,
  unauthorizedMessage?: string,
): Promise<SessionUser | undefined> {
  if (access === "public") return undefined;
  if (access === "signed-in") return requireApiUser(request, unauthorizedMessage);
  if (access === "shopper") return requireApiShopper(request, undefined, unauthorizedMessage);
  if (access === "cart") return requireApiCartCaller(request, unauthorizedMessage);
  return requireApiArea(request, access);
}

/**
 * API guard of the cart calls: the signed-in shopper (as `requireApiShopper`), or undefined for a visitor
 * without a session (nor an API key) when the owner opened the storefront: its cart is the one its
 * `guest_cart` cookie names (app/web/cart-api.server.ts, `cartOwnerOf`). Members only: 401 as before.
 */
async function requireApiCartCaller(
  request: Request,
  unauthorizedMessage?: string,
): Promise<SessionUser | undefined> {
  const visitor = !request.headers.has("Authorization") && !(await getSessionUser(request));
  if (visitor && (await currentStoreSettings()).storefront === "open") return undefined;
  return requireApiShopper(request, undefined, unauthorizedMessage);
}
