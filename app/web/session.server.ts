import { createCookie, createCookieSessionStorage, createSessionStorage, redirect } from "react-router";
import { Op, QueryTypes } from "sequelize";
import {
  LIVE_SESSION_USER,
  SESSION_USER_COLUMNS,
  toSessionUser,
  type SessionUser,
} from "~/services/users.server";
import { getSessionUserAndCartView, type CartView } from "~/services/cart.server";
import { getConfig } from "~/lib/server/config.server";
import { processSingleton } from "~/lib/server/process-singleton.server";
import { getDb } from "~/models/db.server";
import { prepared } from "~/models/prepared-statements.server";
import { noteCatalogueVersion } from "~/models/read-cache.server";
import { noteRequestUser, oncePerRequest } from "~/lib/server/request-scope.server";
import type { FlashMessage } from "~/lib/shared/flash";
import { isUuid } from "~/lib/shared/uuid";

/**
 * Two cookies:
 * - `__session` holds only the id of a row in `sessions` (PostgreSQL). The row
 *   expires, and logout deletes it, so a stolen cookie dies with the session.
 * - `__flash` is a signed cookie session for one-shot messages (the spec's
 *   toasts), so that anonymous visitors get them without a database row.
 */

const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 14;

interface SessionData {
  userId: string;
}

/** What every cookie of the shop shares: httpOnly, SameSite=Lax, Secure behind HTTPS, signed with the session secrets. */
export function cookieOptions() {
  const config = getConfig();
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: config.secureCookies,
    path: "/",
    secrets: config.sessionSecrets,
  };
}

function buildSessionStorage() {
  const cookie = createCookie("__session", { ...cookieOptions(), maxAge: SESSION_MAX_AGE_SECONDS });
  const storage = createSessionStorage<SessionData>({
    cookie,
    async createData(data, expires) {
      const { Session } = getDb().models;
      if (!data.userId) throw new Error("A database session needs a userId");
      const row = await Session.create({
        userId: data.userId,
        data: {},
        expiresAt: expires ?? new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000),
      });
      return row.id;
    },
    async readData(id) {
      if (!isUuid(id)) return null;
      const { Session } = getDb().models;
      const row = await Session.findOne({
        where: { id, expiresAt: { [Op.gt]: new Date() } },
        attributes: ["userId"],
        raw: true,
      });
      return row ? { userId: row.userId } : null;
    },
    async updateData(id, data, expires) {
      if (!isUuid(id) || !data.userId) return;
      const { Session } = getDb().models;
      await Session.update(
        { expiresAt: expires ?? new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000) },
        { where: { id } },
      );
    },
    async deleteData(id) {
      if (!isUuid(id)) return;
      const { Session } = getDb().models;
      await Session.destroy({ where: { id } });
    },
  });
  return { cookie, storage, verifiedIds: new Map<string, string>() };
}

function buildFlashStorage() {
  return createCookieSessionStorage<Record<string, never>, { flash: FlashMessage }>({
    cookie: createCookie("__flash", { ...cookieOptions(), maxAge: 60 * 5 }),
  });
}

function sessionStorage() {
  return processSingleton("session-storage", buildSessionStorage).storage;
}

function flashStorage() {
  return processSingleton("flash-storage", buildFlashStorage);
}

/** How many verified `__session` values each process remembers (about 150 bytes each). */
const VERIFIED_IDS_KEPT = 5000;

/**
 * The signed session id in the `__session` cookie, or null. Checking the signature (an HMAC through Web
 * Crypto, its key imported anew each time) costs more than any other step of reading a session, and a
 * shopper sends the same value on every request: a value found good once is remembered (the secrets do
 * not change while the process runs). Whether the session still exists is the database's answer each time.
 */
async function sessionIdOf(cookieHeader: string): Promise<string | null> {
  const signed = /(?:^|;)\s*__session=([^;]*)/.exec(cookieHeader)?.[1];
  if (!signed) return null;
  const { cookie, verifiedIds } = processSingleton("session-storage", buildSessionStorage);
  const known = verifiedIds.get(signed);
  if (known) return known;
  const id: unknown = await cookie.parse(`__session=${signed}`);
  if (!isUuid(id)) return null;
  // Oldest first out: a Map iterates in insertion order.
  if (verifiedIds.size >= VERIFIED_IDS_KEPT) verifiedIds.delete(verifiedIds.keys().next().value!);
  verifiedIds.set(signed, id);
  return id;
}

// Prepared: every page that knows its visitor runs it (prepared-statements.server.ts).
const SESSION_USER_SQL = prepared(`SELECT ${SESSION_USER_COLUMNS} FROM ${LIVE_SESSION_USER}`);

async function loadSessionUser(cookieHeader: string): Promise<SessionUser | null> {
  // Read the signed id straight from the cookie: one query joins session and user.
  const id = await sessionIdOf(cookieHeader);
  if (!id) return null;
  const rows = await getDb().sequelize.query<SessionUser>(SESSION_USER_SQL, {
    bind: [id],
    type: QueryTypes.SELECT,
  });
  // The row's permissions column as the person holds it (an admin: every area; a shopper: none shown).
  return rows[0] ? toSessionUser(rows[0]) : null;
}

/** The id of this request's database session (its `sessions` row), or null. */
export function getSessionId(request: Request): Promise<string | null> {
  return sessionIdOf(request.headers.get("Cookie") ?? "");
}

const sessionUserKey = (cookieHeader: string) => `session-user:${cookieHeader}`;

/**
 * The signed-in user of this request, or null. The root, the layout and the
 * page loaders all ask during one request: they share one query, keyed by the
 * cookie so that a request that signs in or out sees its own answer.
 */
export function getSessionUser(request: Request): Promise<SessionUser | null> {
  const cookieHeader = request.headers.get("Cookie") ?? "";
  return oncePerRequest(sessionUserKey(cookieHeader), () =>
    loadSessionUser(cookieHeader).then((user) => {
      noteRequestUser(user?.id);
      return user;
    }),
  );
}

/**
 * The signed-in user of this request and their cart, in one query, or null
 * (the shop layout and the 404/403 pages show both). Asked before
 * getSessionUser in a request, it answers that one too: a shop page then reads
 * the session and the cart in one round trip. The cart is read when this is
 * first asked during the request, so after any action of the request that has
 * started by then.
 */
export function getSessionUserAndCart(
  request: Request,
): Promise<{ user: SessionUser; cart: CartView } | null> {
  const cookieHeader = request.headers.get("Cookie") ?? "";
  return oncePerRequest(`session-user-cart:${cookieHeader}`, () => {
    const viewer = sessionIdOf(cookieHeader).then((id) => (id ? getSessionUserAndCartView(id) : null));
    noteCatalogueVersion(viewer.then((found) => found?.catalogueVersion));
    oncePerRequest(sessionUserKey(cookieHeader), () => {
      const user = viewer.then((found) => {
        noteRequestUser(found?.user.id);
        return found?.user ?? null;
      });
      // Nobody may ask for the user alone: its failure (a database outage) reaches the callers of this one.
      user.catch(() => {});
      return user;
    });
    return viewer;
  });
}

/** Starts a database session for `userId`; returns the Set-Cookie value. */
export async function createUserSession(userId: string): Promise<string> {
  const storage = sessionStorage();
  const session = await storage.getSession();
  session.set("userId", userId);
  // Housekeeping: expired rows are useless; the index on expires_at keeps this cheap.
  await getDb().models.Session.destroy({ where: { expiresAt: { [Op.lte]: new Date() } } });
  return storage.commitSession(session);
}

/** Ends the session of this request (deletes its row); returns the Set-Cookie value. */
export async function destroyUserSession(request: Request): Promise<string> {
  const storage = sessionStorage();
  const session = await storage.getSession(request.headers.get("Cookie"));
  return storage.destroySession(session);
}

/** Returns the Set-Cookie value that carries `flash` to the next page. */
export async function setFlash(request: Request, flash: FlashMessage): Promise<string> {
  const storage = flashStorage();
  const session = await storage.getSession(request.headers.get("Cookie"));
  session.flash("flash", flash);
  return storage.commitSession(session);
}

/** Reads (and consumes) the flash message of this request. */
export async function readFlash(
  request: Request,
): Promise<{ flash: FlashMessage | null; setCookie: string | null }> {
  const cookieHeader = request.headers.get("Cookie");
  if (!cookieHeader?.includes("__flash=")) return { flash: null, setCookie: null };
  const storage = flashStorage();
  const session = await storage.getSession(cookieHeader);
  const flash = (session.get("flash") as FlashMessage | undefined) ?? null;
  return { flash, setCookie: flash ? await storage.commitSession(session) : null };
}

export async function redirectWithFlash(
  request: Request,
  url: string,
  flash: FlashMessage,
  init: { headers?: HeadersInit; status?: number } = {},
) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await setFlash(request, flash));
  return redirect(url, { status: init.status ?? 302, headers });
}
