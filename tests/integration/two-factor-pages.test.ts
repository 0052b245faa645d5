import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getConfig, setConfig } from "../../app/lib/server/config.server";
import { totpCodeAt } from "../../app/lib/server/totp.server";
import { TWO_FACTOR_INTENTS, TWO_FACTOR_TEXT } from "../../app/lib/shared/two-factor";
import * as adminAccount from "../../app/routes/admin.account";
import * as adminDashboard from "../../app/routes/admin.dashboard";
import * as adminLayout from "../../app/routes/admin";
import * as authLogin from "../../app/routes/auth.login";
import * as authTwoFactor from "../../app/routes/auth.two-factor";
import * as shopAccount from "../../app/routes/shop.account";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute, cookieFrom, sessionCookieFor } from "../support/requests";

/**
 * Two-factor sign-in on the pages, as a browser without JavaScript uses them: plain form posts
 * that redirect, except the two that answer backup codes: their answer is the page showing them, once,
 * and no cookie ever holds them. The account section (set up with the password, confirm, backup codes
 * once, turn off), the sign-in's code page, and TWO_FACTOR=required sending the back office to enrol.
 */

const SETTINGS_URL = "/shop/account?tab=settings";

interface Section {
  status: { enabled: boolean; pending: boolean; backupCodesLeft: number };
  enrolment: { secret: string; qrSvg: string } | null;
  required: boolean;
}

/** The backup codes a confirming (or renewing) form's answer shows: 200, the codes, no cookie holding them. */
async function codesShownBy(response: Response): Promise<string[]> {
  expect(response.status).toBe(200);
  const body = (await response.json()) as { newBackupCodes: { codes: string[]; message: string } };
  const codes = body.newBackupCodes.codes;
  expect(codes).toHaveLength(10);
  const setCookies = response.headers.getSetCookie().join("\n");
  expect(setCookies).not.toMatch(/__backup_codes/);
  for (const code of codes) expect(setCookies).not.toContain(code);
  return codes;
}

function location(response: Response): string {
  expect([301, 302, 303]).toContain(response.status);
  return response.headers.get("Location")!;
}

/** The cookies of `response` laid over `cookie` (a browser keeps the ones it was not told to drop). */
function withCookies(cookie: string, response: Response): string {
  const jar = new Map(
    cookie
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.split("=")[0]!, pair] as const),
  );
  for (const pair of cookieFrom(response).split("; ").filter(Boolean)) {
    const [name, value] = [pair.split("=")[0]!, pair.slice(pair.indexOf("=") + 1)];
    if (value === "") jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

async function sectionOf(cookie: string): Promise<{ section: Section; response: Response }> {
  const response = await callRoute(shopAccount.loader, SETTINGS_URL, { cookie });
  expect(response.status).toBe(200);
  const body = (await response.clone().json()) as { twoFactor: Section };
  return { section: body.twoFactor, response };
}

/** A shopper who set up two-factor sign-in on the Settings tab: their cookie and secret. */
async function shopperEnrolledOnPage() {
  const user = await createTestUser();
  let cookie = await sessionCookieFor(user.id);
  const start = await callRoute(shopAccount.action, SETTINGS_URL, {
    cookie,
    form: { intent: TWO_FACTOR_INTENTS.start, password: user.password },
  });
  expect(location(start)).toBe(`${SETTINGS_URL}#two-factor`);
  const { section } = await sectionOf(cookie);
  const secret = section.enrolment!.secret;
  const confirm = await callRoute(shopAccount.action, SETTINGS_URL, {
    cookie,
    form: { intent: TWO_FACTOR_INTENTS.confirm, code: totpCodeAt(secret, Date.now()) },
  });
  await codesShownBy(confirm);
  cookie = withCookies(cookie, confirm);
  return { user, cookie, secret };
}

beforeEach(resetDatabase);

describe("the Two-factor sign-in section of the Settings tab", () => {
  it("sets up with a QR code and the secret as text, confirms with a code and shows the backup codes once", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    expect((await sectionOf(cookie)).section).toMatchObject({
      status: { enabled: false, pending: false },
      enrolment: null,
    });

    const noPassword = await callRoute(shopAccount.action, SETTINGS_URL, {
      cookie,
      form: { intent: TWO_FACTOR_INTENTS.start, password: "not-my-password" },
    });
    expect(noPassword.status).toBe(400);
    expect(((await noPassword.json()) as { twoFactorForm: { intent: string } }).twoFactorForm.intent).toBe(
      TWO_FACTOR_INTENTS.start,
    );
    expect((await sectionOf(cookie)).section.status.pending).toBe(false);
    await callRoute(shopAccount.action, SETTINGS_URL, {
      cookie,
      form: { intent: TWO_FACTOR_INTENTS.start, password: user.password },
    });
    const pending = (await sectionOf(cookie)).section;
    expect(pending.status.pending).toBe(true);
    expect(pending.enrolment!.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(pending.enrolment!.qrSvg).toMatch(/^<svg /);

    const wrong = await callRoute(shopAccount.action, SETTINGS_URL, {
      cookie,
      form: { intent: TWO_FACTOR_INTENTS.confirm, code: "000000" },
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({
      twoFactorForm: { intent: TWO_FACTOR_INTENTS.confirm, error: TWO_FACTOR_TEXT.wrongCode },
    });

    const confirm = await callRoute(shopAccount.action, SETTINGS_URL, {
      cookie,
      form: { intent: TWO_FACTOR_INTENTS.confirm, code: totpCodeAt(pending.enrolment!.secret, Date.now()) },
    });
    const codes = await codesShownBy(confirm);
    const shown = await sectionOf(withCookies(cookie, confirm));
    expect(shown.section.status).toMatchObject({ enabled: true, backupCodesLeft: 10 });
    expect(shown.section.enrolment).toBeNull();
    // Shown once, by the form's answer: no later view of the page has them.
    const page = await shown.response.text();
    for (const code of codes) expect(page).not.toContain(code);
  });

  it("cancels a started set-up, and turns off with a code", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    await callRoute(shopAccount.action, SETTINGS_URL, {
      cookie,
      form: { intent: TWO_FACTOR_INTENTS.start, password: user.password },
    });
    await callRoute(shopAccount.action, SETTINGS_URL, {
      cookie,
      form: { intent: TWO_FACTOR_INTENTS.cancel },
    });
    expect((await sectionOf(cookie)).section.status.pending).toBe(false);

    const enrolled = await shopperEnrolledOnPage();
    const off = await callRoute(shopAccount.action, SETTINGS_URL, {
      cookie: enrolled.cookie,
      form: { intent: TWO_FACTOR_INTENTS.disable, code: totpCodeAt(enrolled.secret, Date.now() + 30_000) },
    });
    expect(location(off)).toBe(`${SETTINGS_URL}#two-factor`);
    expect((await sectionOf(enrolled.cookie)).section.status.enabled).toBe(false);
  });
});

describe("new backup codes on the Settings tab", () => {
  it("shows the new ones once after a right code, and keeps the old ones after a wrong one", async () => {
    const { cookie, secret } = await shopperEnrolledOnPage();
    const cleared = withCookies(cookie, (await sectionOf(cookie)).response);
    const wrong = await callRoute(shopAccount.action, SETTINGS_URL, {
      cookie: cleared,
      form: { intent: TWO_FACTOR_INTENTS.backupCodes, code: "000000" },
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({
      twoFactorForm: { intent: TWO_FACTOR_INTENTS.backupCodes, error: TWO_FACTOR_TEXT.wrongCode },
    });
    const made = await callRoute(shopAccount.action, SETTINGS_URL, {
      cookie: cleared,
      form: { intent: TWO_FACTOR_INTENTS.backupCodes, code: totpCodeAt(secret, Date.now() + 30_000) },
    });
    await codesShownBy(made);
    const shown = (await sectionOf(withCookies(cleared, made))).section;
    expect(shown.status.backupCodesLeft).toBe(10);
  });
});

describe("signing in on the pages with two-factor sign-in on", () => {
  it("goes from the password to the code page, and from a right code to the page asked for", async () => {
    const { user, secret } = await shopperEnrolledOnPage();
    const login = await callRoute(authLogin.action, "/auth/login", {
      form: { email: user.email, password: "password123", redirectTo: "/shop/cart" },
    });
    expect(location(login)).toBe("/auth/two-factor?redirectTo=%2Fshop%2Fcart");
    expect(login.headers.getSetCookie().some((cookie) => cookie.startsWith("__session="))).toBe(false);
    const challenge = cookieFrom(login);
    expect((await callRoute(authTwoFactor.loader, "/auth/two-factor", { cookie: challenge })).status).toBe(
      200,
    );

    const wrong = await callRoute(authTwoFactor.action, "/auth/two-factor", {
      cookie: challenge,
      form: { code: "000000", redirectTo: "/shop/cart" },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: TWO_FACTOR_TEXT.wrongCode, restart: false });

    const right = await callRoute(authTwoFactor.action, "/auth/two-factor", {
      cookie: challenge,
      form: { code: totpCodeAt(secret, Date.now() + 30_000), redirectTo: "/shop/cart" },
    });
    expect(location(right)).toBe("/shop/cart");
    expect(right.headers.getSetCookie().some((cookie) => cookie.startsWith("__session="))).toBe(true);
  });

  it("sends a visitor without a challenge back to the sign-in page", async () => {
    const response = await callRoute(authTwoFactor.loader, "/auth/two-factor");
    expect(location(response)).toBe("/auth/login");
  });

  it("asks for the password again once the challenge's codes are spent", async () => {
    const { user } = await shopperEnrolledOnPage();
    const login = await callRoute(authLogin.action, "/auth/login", {
      form: { email: user.email, password: "password123" },
    });
    const challenge = cookieFrom(login);
    for (let i = 0; i < 5; i += 1) {
      await callRoute(authTwoFactor.action, "/auth/two-factor", {
        cookie: challenge,
        form: { code: "000000" },
      });
    }
    const spent = await callRoute(authTwoFactor.action, "/auth/two-factor", {
      cookie: challenge,
      form: { code: "000000" },
    });
    expect(spent.status).toBe(429);
    expect(await spent.json()).toEqual({ error: TWO_FACTOR_TEXT.challengeSpent, restart: true });
  });
});

describe("TWO_FACTOR=required on the back-office pages", () => {
  const original = getConfig();
  beforeEach(() => setConfig({ ...original, twoFactor: "required" }));
  afterEach(() => setConfig(original));

  it("sends an admin without it from every page to the account page, which stays open, until it is on", async () => {
    const admin = await createTestUser({ role: "admin" });
    const cookie = await sessionCookieFor(admin.id);
    for (const [path, loader] of [
      ["/admin/dashboard", adminDashboard.loader],
      ["/admin", adminLayout.loader],
    ] as const) {
      expect(location(await callRoute(loader, path, { cookie }))).toBe("/admin/account#two-factor");
    }
    // The account page, its layout and their data requests (with JavaScript) stay open.
    expect((await callRoute(adminAccount.loader, "/admin/account", { cookie })).status).toBe(200);
    expect((await callRoute(adminLayout.loader, "/admin/account.data", { cookie })).status).toBe(200);
    const account = (await (await callRoute(adminAccount.loader, "/admin/account", { cookie })).json()) as {
      twoFactor: Section;
    };
    expect(account.twoFactor.required).toBe(true);

    await callRoute(adminAccount.action, "/admin/account", {
      cookie,
      form: { intent: TWO_FACTOR_INTENTS.start, password: admin.password },
    });
    const pending = (await (await callRoute(adminAccount.loader, "/admin/account", { cookie })).json()) as {
      twoFactor: Section;
    };
    const confirm = await callRoute(adminAccount.action, "/admin/account", {
      cookie,
      form: {
        intent: TWO_FACTOR_INTENTS.confirm,
        code: totpCodeAt(pending.twoFactor.enrolment!.secret, Date.now()),
      },
    });
    await codesShownBy(confirm);
    expect((await callRoute(adminDashboard.loader, "/admin/dashboard", { cookie })).status).toBe(200);
  });

  it("lets a shopper's pages be", async () => {
    const shopper = await createTestUser();
    const cookie = await sessionCookieFor(shopper.id);
    expect((await callRoute(shopAccount.loader, SETTINGS_URL, { cookie })).status).toBe(200);
  });
});
