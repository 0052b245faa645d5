import { hashPassword } from "../app/lib/server/password.server";
import { totpCodeAt } from "../app/lib/server/totp.server";
import type { Database } from "../app/models/db.server";
import { DEMO_ACCOUNTS } from "../db/seed/seed";
import { median } from "./stats";

/**
 * The requests of a hostile probe of the shop, replayed by `npm run bench:hostile`
 * against the production server: each one's status beside the status the
 * contract (API.md) asks for, and its time. A 5xx is a failure of the bench; a
 * status other than the expected one is flagged and the run goes on, since
 * some holes are closed on other branches and hold only once they are merged.
 * Webhook URLs name loopback addresses only, and are refused before anything
 * is sent; nothing here leaves 127.0.0.1.
 */

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  ms: number;
}

export type Send = (
  method: string,
  urlPath: string,
  options?: { headers?: Record<string, string | number>; body?: string },
) => Promise<Answer>;

export interface ProbeCase {
  label: string;
  /** The statuses the contract allows; empty: recorded only. */
  expected: number[];
  statuses: number[];
  medianMs: number;
  maxMs: number;
  /** What else the case checked (a field error's name, a value that must not change), when it failed. */
  problem: string | null;
}

export interface ProbeResult {
  cases: ProbeCase[];
  /** The median time of a plain catalogue read before and after the probe: the probe must not slow the shop. */
  referenceMs: { before: number; after: number };
}

const REPEATS = 5;
export const REFERENCE_READS = 60;
/** ZIP 10001 is Manhattan; Delaware has no sales tax. */
const MANHATTAN = {
  address: "20 W 34th St",
  city: "New York",
  pincode: "10001",
  phone: "555 0100",
  notes: "-",
};

interface Person {
  email: string;
  password: string;
  userName: string;
}

/** The staff the probe signs in as (after work/sec-a's notes, /work/helper-notes/probe-sec-a.md). */
export interface ProbeAccounts {
  /** Holds only `staff`. */
  manager: Person;
  /** Holds `orders` and `taxes`, and is disabled. */
  accountant: Person;
  /** Holds `staff`, `orders` and `taxes`: makes the API key named "Demo Admin". */
  clerk: Person;
}

/**
 * The staff the probe needs, which the API cannot make without a mail round
 * trip: new people on every run (the probe turns two-factor sign-in on for
 * one of them), written straight into the bench's database before the server starts.
 */
export async function prepareProbeAccounts(db: Database): Promise<ProbeAccounts> {
  const run = Date.now();
  const person = (name: string): Person => ({
    email: `probe-${name}-${run}@example.com`,
    password: `probe-${name}-password-1`,
    userName: `Probe ${name}`,
  });
  const accounts: ProbeAccounts = {
    manager: person("manager"),
    accountant: person("accountant"),
    clerk: person("clerk"),
  };
  for (const [who, permissions, disabled] of [
    [accounts.manager, ["staff"], false],
    [accounts.accountant, ["orders", "taxes"], true],
    [accounts.clerk, ["staff", "orders", "taxes"], false],
  ] as const) {
    await db.models.User.create({
      userName: who.userName,
      email: who.email,
      passwordHash: await hashPassword(who.password),
      role: "staff",
      permissions: [...permissions],
      disabledAt: disabled ? new Date() : null,
    });
  }
  return accounts;
}

function cookieOf(answer: Answer): string {
  return [answer.headers["set-cookie"] ?? []]
    .flat()
    .map((value) => value.split(";")[0])
    .join("; ");
}

function parsed(answer: Answer): Record<string, unknown> {
  try {
    return JSON.parse(answer.body) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export async function replayProbe(send: Send, origin: string, accounts: ProbeAccounts): Promise<ProbeResult> {
  const json = { "Content-Type": "application/json" };
  // Each sign-in from a client address of its own: the bench's guessing rounds used up 127.0.0.1's allowance.
  let client = 0;
  const login = (who: { email: string; password: string }) => {
    client += 1;
    return send("POST", "/api/auth/login", {
      headers: { ...json, "X-Forwarded-For": `10.77.${client >> 8}.${client & 255}` },
      body: JSON.stringify({ email: who.email, password: who.password }),
    });
  };
  const signIn = async (who: { email: string; password: string }) => {
    const answer = await login(who);
    if (answer.status !== 200)
      throw new Error(`sign-in of ${who.email} answered ${answer.status}: ${answer.body}`);
    const user = (parsed(answer).user ?? {}) as { id?: string };
    return { cookie: cookieOf(answer), id: user.id ?? "", password: who.password };
  };
  const register = async (name: string) => {
    const account = {
      email: `probe-${name}-${Date.now()}@example.com`,
      password: `probe-${name}-password-42`,
    };
    client += 1;
    const registered = await send("POST", "/api/auth/register", {
      headers: { ...json, "X-Forwarded-For": `10.78.${client >> 8}.${client & 255}` },
      body: JSON.stringify({ userName: `Probe ${name}`, ...account }),
    });
    if (registered.status !== 201) throw new Error(`registration answered ${registered.status}`);
    return { ...account, ...(await signIn(account)) };
  };
  const admin = await signIn(DEMO_ACCOUNTS.find((account) => account.role === "admin")!);
  const manager = await signIn(accounts.manager);
  const clerk = await signIn(accounts.clerk);
  const shopper = await register("shopper");
  const as = (who: { cookie: string }, extra: Record<string, string> = {}) => ({
    ...json,
    Cookie: who.cookie,
    ...extra,
  });
  // As a browser at the shop's own address sends it: React Router checks Origin against Host too.
  const ownOrigin = { Host: new URL(origin).host, Origin: origin };
  const form = (who: { cookie: string }, fields: Record<string, string>) => ({
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: who.cookie, ...ownOrigin },
    body: new URLSearchParams(fields).toString(),
  });

  // 60 reads, the median: the machine is shared and noisy, and a few reads say little.
  const reference = async () => {
    const times: number[] = [];
    for (let i = 0; i < REFERENCE_READS; i += 1) times.push((await send("GET", "/api/shop/products/get")).ms);
    return median(times);
  };
  const referenceBefore = await reference();

  const cases: ProbeCase[] = [];
  /**
   * Sends `request` REPEATS times (a refusal changes nothing, so each answer should be the same), or
   * once for a request that changes something when it succeeds; `check` looks at what else must hold.
   */
  const probe = async (
    label: string,
    expected: number[],
    request: () => Promise<Answer>,
    check?: (first: Answer) => Promise<string | null> | string | null,
    repeats = REPEATS,
  ) => {
    const answers: Answer[] = [];
    for (let i = 0; i < repeats; i += 1) answers.push(await request());
    const times = answers.map((answer) => answer.ms);
    cases.push({
      label,
      expected,
      statuses: answers.map((answer) => answer.status),
      medianMs: median(times),
      maxMs: Math.max(...times),
      problem: check ? await check(answers[0]!) : null,
    });
  };
  const namesField = (field: string) => (answer: Answer) => {
    const errors = (parsed(answer).errors ?? {}) as Record<string, unknown>;
    return answer.status === 400 && !(field in errors) ? `no field error for ${field}` : null;
  };

  // --- Sales tax: a shopper names another state than their ZIP code's.
  const contradicting = { ...MANHATTAN, country: "US", region: "DE" };
  await probe(
    "tax: add an address, ZIP 10001 with region DE (API)",
    [400],
    () =>
      send("POST", "/api/shop/address/add", {
        headers: as(shopper),
        body: JSON.stringify(contradicting),
      }),
    namesField("region"),
  );
  const added = await send("POST", "/api/shop/address/add", {
    headers: as(shopper),
    body: JSON.stringify(MANHATTAN),
  });
  const address = (parsed(added).data ?? {}) as { _id?: string; region?: string };
  await probe(
    "tax: change that address to region DE (API)",
    [400],
    () =>
      send("PUT", `/api/shop/address/update/${shopper.id}/${address._id ?? "none"}`, {
        headers: as(shopper),
        body: JSON.stringify(contradicting),
      }),
    namesField("region"),
  );
  await probe(
    "tax: add an address, ZIP 10001 with region DE (form without JavaScript)",
    [400],
    () => send("POST", "/shop/addresses", form(shopper, { intent: "addAddress", ...contradicting })),
    (answer) => (/does not match ZIP code 10001/.test(answer.body) ? null : "the form shows no message"),
  );
  // The estimate for the ZIP-10001 address carries New York's rate (4 % on everything, made for the probe).
  const rate = await send("POST", "/api/admin/tax-rates", {
    headers: as(admin),
    body: JSON.stringify({
      name: "Probe NY",
      country: "US",
      region: "NY",
      rate: 4,
      appliesTo: ["men", "women", "kids", "footwear", "accessories"],
    }),
  });
  const rateId = ((parsed(rate).data ?? {}) as { _id?: string })._id;
  const products = (parsed(await send("GET", "/api/shop/products/get")).data ?? []) as {
    _id: string;
    variants: { _id: string; totalStock: number }[];
  }[];
  const product = products.find((candidate) => candidate.variants.some((variant) => variant.totalStock > 0));
  const variant = product?.variants.find((candidate) => candidate.totalStock > 0);
  await send("POST", "/api/shop/cart/add", {
    headers: as(shopper),
    body: JSON.stringify({
      userId: shopper.id,
      productId: product?._id,
      variantId: variant?._id,
      quantity: 1,
    }),
  });
  await probe(
    "tax: estimate for the ZIP-10001 address (region left out): New York's tax",
    [200],
    () =>
      send("POST", "/api/shop/cart/tax-estimate", {
        headers: as(shopper),
        body: JSON.stringify({ userId: shopper.id, addressId: address._id }),
      }),
    (answer) => {
      const lines = (((parsed(answer).data ?? {}) as { taxLines?: { name: string }[] }).taxLines ?? []).map(
        (line) => line.name,
      );
      return address.region === "NY" && lines.includes("Probe NY")
        ? null
        : `region ${String(address.region)}, tax lines ${JSON.stringify(lines)}`;
    },
  );
  if (rateId) await send("DELETE", `/api/admin/tax-rates/${rateId}`, { headers: as(admin) });

  // --- Webhooks: IPv6 literals that carry 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE=false).
  for (const host of ["[::127.0.0.1]", "[::ffff:0:7f00:1]", "[64:ff9b:1::7f00:1]", "[2002:7f00:1::]"]) {
    await probe(`webhooks: save https://${host}/hook`, [400], async () => {
      const answer = await send("POST", "/api/admin/webhooks", {
        headers: as(admin),
        body: JSON.stringify({ url: `https://${host}/hook`, events: ["product.deleted"] }),
      });
      // Saved after all: removed at once, before any event could be sent to it.
      const saved = ((parsed(answer).data ?? {}) as { _id?: string })._id;
      if (saved) await send("DELETE", `/api/admin/webhooks/${saved}`, { headers: as(admin) });
      return answer;
    });
  }

  // --- Staff, two-factor sign-in, API keys: the requests of /work/helper-notes/probe-sec-a.md, numbered as there.
  const bearer = (secret: string, extra: Record<string, string> = {}) => ({
    ...json,
    Authorization: `Bearer ${secret}`,
    ...extra,
  });
  const userNameOf = async (who: { cookie: string }) =>
    (
      (parsed(await send("GET", "/api/auth/check-auth", { headers: as(who) })).user ?? {}) as {
        userName?: string;
      }
    ).userName;
  const setCookies = (answer: Answer) => [answer.headers["set-cookie"] ?? []].flat();

  // A shopper with two-factor sign-in on, turned on through the account page's form (7a).
  const guarded = await register("guarded");
  const started = parsed(
    await send("POST", "/api/account/two-factor", {
      headers: as(guarded),
      body: JSON.stringify({ password: guarded.password }),
    }),
  ) as { secret?: string };
  await probe(
    "7a two-factor: confirming enrolment on the account page keeps the backup codes out of cookies",
    [200],
    () =>
      send(
        "POST",
        "/shop/account?tab=settings",
        form(guarded, { intent: "two-factor-confirm", code: totpCodeAt(started.secret ?? "", Date.now()) }),
      ),
    (answer) =>
      setCookies(answer).some((cookie) => /backup/i.test(cookie)) ? "a cookie holds backup codes" : null,
    1,
  );
  // Once an earlier request turned it off, a later one cannot show whether it would have.
  let offSince: string | null = null;
  const stillGuarded = (label: string) => async () => {
    if (offSince) return `two-factor was already off (since ${offSince})`;
    const answer = await login(guarded);
    if (answer.status === 401 && parsed(answer).twoFactorRequired === true) return null;
    offSince = label;
    return `the shopper's sign-in answered ${answer.status} without two-factor`;
  };
  await probe(
    "1 staff: `staff` alone resets a shopper's two-factor",
    [404],
    () => send("DELETE", `/api/admin/staff/${guarded.id}/two-factor`, { headers: as(manager) }),
    stillGuarded("1"),
  );
  await probe(
    "1b staff: an admin resets a shopper's two-factor",
    [404],
    () => send("DELETE", `/api/admin/staff/${guarded.id}/two-factor`, { headers: as(admin) }),
    stillGuarded("1b"),
  );
  await probe(
    "1c staff: `staff` alone resets a shopper's two-factor on the staff page",
    [302],
    () => send("POST", "/admin/staff", form(manager, { intent: "reset-two-factor", id: guarded.id })),
    stillGuarded("1c"),
  );

  const nameUnchanged = async () =>
    (await userNameOf(shopper)) === "Probe Hijacked" ? "the user name changed" : null;
  const changeName = (headers: Record<string, string>, userName = "Probe Hijacked") =>
    send("POST", "/api/account/user-name", { headers, body: JSON.stringify({ userName }) });
  // Each case starts from the shopper's own name, so that a change is the case's own.
  const restoreName = () => changeName(as(shopper), "Probe shopper");
  await restoreName();
  await probe(
    "3 account: `Bearer junk` + a shopper's cookie + Origin http://evil.example change the user name",
    [403],
    () => changeName(as(shopper, { Authorization: "Bearer junk", Origin: "http://evil.example" })),
    nameUnchanged,
  );
  await restoreName();
  await probe(
    "3b account: the same without the Authorization header",
    [403],
    () => changeName(as(shopper, { Origin: "http://evil.example" })),
    nameUnchanged,
  );
  await restoreName();
  await probe(
    "3c account: `Bearer junk` beside a shopper's cookie, no Origin",
    [401],
    () => changeName(as(shopper, { Authorization: "Bearer junk" })),
    nameUnchanged,
  );
  const keyNamedLikeAdmin = parsed(
    await send("POST", "/api/admin/api-keys", {
      headers: as(clerk),
      body: JSON.stringify({ name: "Demo Admin", permissions: ["taxes"] }),
    }),
  ).data as { _id?: string; secret?: string } | undefined;
  const adminLikeSecret = keyNamedLikeAdmin?.secret ?? "shop_sk_missing";
  await probe("3d account: a valid API key on a person's own route", [403], () =>
    changeName(bearer(adminLikeSecret)),
  );
  await probe("3e admin: an invalid key beside an admin's cookie", [401], () =>
    send("GET", "/api/admin/orders/get", {
      headers: as(admin, { Authorization: "Bearer shop_sk_not-a-key" }),
    }),
  );
  let keyRateId: string | undefined;
  await probe(
    "3f api keys: a key from another origin, no cookie, adds a tax rate",
    [201],
    async () => {
      const answer = await send("POST", "/api/admin/tax-rates", {
        headers: bearer(adminLikeSecret, { Origin: "http://evil.example" }),
        body: JSON.stringify({
          name: "Probe key NY",
          country: "US",
          region: "NY",
          rate: 4,
          appliesTo: ["men"],
        }),
      });
      keyRateId = ((parsed(answer).data ?? {}) as { _id?: string })._id;
      return answer;
    },
    undefined,
    1,
  );
  await probe(
    "4 audit: the key named `Demo Admin` is on record as a key, not as the admin",
    [200],
    () => send("GET", "/api/admin/audit?entity=taxRate", { headers: as(admin) }),
    (answer) => {
      const entries = (parsed(answer).data ?? []) as { entityId: string; actor: { userName: string } }[];
      const entry = entries.find((candidate) => candidate.entityId === keyRateId);
      if (!entry) return "no entry for the key's tax rate";
      return entry.actor.userName === "Demo Admin" ? `the entry's actor is "${entry.actor.userName}"` : null;
    },
  );
  if (keyRateId) await send("DELETE", `/api/admin/tax-rates/${keyRateId}`, { headers: as(admin) });
  if (keyNamedLikeAdmin?._id) {
    await send("DELETE", `/api/admin/api-keys/${keyNamedLikeAdmin._id}`, { headers: as(admin) });
  }

  const taxesKey = (parsed(
    await send("POST", "/api/admin/api-keys", {
      headers: as(admin),
      body: JSON.stringify({ name: "Tax sync", permissions: ["taxes"] }),
    }),
  ).data ?? {}) as { _id?: string; secret?: string };
  await probe(
    "5a api keys: `staff` alone revokes a key holding `taxes`",
    [403],
    () =>
      send("DELETE", `/api/admin/api-keys/${taxesKey._id ?? "none"}`, { headers: as(manager, ownOrigin) }),
    async () => {
      const used = await send("GET", "/api/admin/tax-rates", { headers: bearer(taxesKey.secret ?? "") });
      return used.status === 200 ? null : `the key answers ${used.status} afterwards`;
    },
  );
  const staffList = (parsed(await send("GET", "/api/admin/staff", { headers: as(admin) })).data ?? []) as {
    _id: string;
    email: string;
  }[];
  const accountantId = staffList.find((member) => member.email === accounts.accountant.email)?._id ?? "none";
  const enable = (who: { cookie: string }) =>
    send("PUT", `/api/admin/staff/${accountantId}`, {
      headers: as(who, ownOrigin),
      body: JSON.stringify({ disabled: false }),
    });
  await probe(
    "5b staff: `staff` alone enables a disabled member holding `orders` and `taxes`",
    [403],
    () => enable(manager),
    async () => {
      const answer = await login(accounts.accountant);
      return answer.status === 200 ? "the disabled member signs in" : null;
    },
  );
  await probe(
    "5c api keys, staff: an admin revokes that key and enables that member",
    [200],
    () => send("DELETE", `/api/admin/api-keys/${taxesKey._id ?? "none"}`, { headers: as(admin, ownOrigin) }),
    async () => {
      const answer = await enable(admin);
      return answer.status === 200 ? null : `enabling answered ${answer.status}`;
    },
    1,
  );

  await probe(
    "8a two-factor: enrolment with a session alone (no password)",
    [400],
    () => send("POST", "/api/account/two-factor", { headers: as(shopper), body: "{}" }),
    namesField("password"),
  );
  await probe(
    "8a'' two-factor: enrolment with the right password",
    [200],
    () =>
      send("POST", "/api/account/two-factor", {
        headers: as(shopper),
        body: JSON.stringify({ password: shopper.password }),
      }),
    undefined,
    1,
  );
  // After 5 wrong ones in 15 minutes the password check answers 429 (shared with the password change).
  await probe(
    "8a' two-factor: enrolment with a wrong password",
    [400, 429],
    () =>
      send("POST", "/api/account/two-factor", {
        headers: as(shopper),
        body: JSON.stringify({ password: "not-the-password" }),
      }),
    namesField("password"),
  );
  await probe(
    "8b payments: the simulator's dashboard for staff holding `orders`",
    [302],
    () => send("GET", "/payment-simulator/dashboard", { headers: as(clerk) }),
    (answer) =>
      String(answer.headers.location ?? "").includes("/unauth-page")
        ? null
        : `sent to ${String(answer.headers.location)}`,
  );
  // Two-factor on for the clerk, then a sign-in completed with a backup code (a TOTP code's step was just used).
  const clerkEnrolment = parsed(
    await send("POST", "/api/account/two-factor", {
      headers: as(clerk),
      body: JSON.stringify({ password: clerk.password }),
    }),
  ) as { secret?: string };
  const confirmed = parsed(
    await send("POST", "/api/account/two-factor/confirm", {
      headers: as(clerk),
      body: JSON.stringify({ code: totpCodeAt(clerkEnrolment.secret ?? "", Date.now()) }),
    }),
  ) as { backupCodes?: string[]; data?: { backupCodes?: string[] } };
  const backupCodes = confirmed.backupCodes ?? confirmed.data?.backupCodes ?? [];
  await probe(
    "8c two-factor: the code step answers the staff member's permissions",
    [200],
    async () => {
      const challenge = await login(accounts.clerk);
      return send("POST", "/api/auth/two-factor", {
        headers: { ...json, Cookie: cookieOf(challenge) },
        body: JSON.stringify({ code: backupCodes[0] ?? "000000" }),
      });
    },
    (answer) => {
      const permissions = ((parsed(answer).user ?? {}) as { permissions?: string[] }).permissions ?? [];
      return permissions.includes("taxes") ? null : `permissions ${JSON.stringify(permissions)}`;
    },
    1,
  );

  return { cases, referenceMs: { before: referenceBefore, after: await reference() } };
}

/** True when every answer of the case was one the contract allows (always, for a case recorded only). */
export function asExpected(probeCase: ProbeCase): boolean {
  return (
    probeCase.problem === null &&
    (probeCase.expected.length === 0 ||
      probeCase.statuses.every((status) => probeCase.expected.includes(status)))
  );
}

/** The answers that were 5xx, by case: the bench fails on any. */
export function serverErrors(result: ProbeResult): string[] {
  return result.cases
    .filter((probeCase) => probeCase.statuses.some((status) => status >= 500))
    .map((probeCase) => probeCase.label);
}

/** The Markdown table of the replay for bench/RESULTS.md. */
export function probeTable(result: ProbeResult): string[] {
  const distinct = (statuses: number[]) => [...new Set(statuses)].join(", ");
  return [
    "| Probe request | Expected | Answered | Sent | Time (median, max) | Result |",
    "| --- | --- | --- | --- | --- | --- |",
    ...result.cases.map(
      (probeCase) =>
        `| ${probeCase.label} | ${probeCase.expected.length ? probeCase.expected.join(" or ") : "recorded"} | ${distinct(probeCase.statuses)} | ${probeCase.statuses.length} | ${probeCase.medianMs.toFixed(1)} ms, ${probeCase.maxMs.toFixed(1)} ms | ${
          probeCase.statuses.some((status) => status >= 500)
            ? "**5xx**"
            : asExpected(probeCase)
              ? "as expected"
              : `**mismatch**${probeCase.problem ? ` (${probeCase.problem})` : ""}`
        } |`,
    ),
  ];
}
