import { hashPassword } from "../app/lib/server/password.server";
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
const STAFF = {
  email: "bench-probe-staff@example.com",
  password: "bench-probe-staff-1",
  userName: "Probe Staff",
};
const PRIVILEGED = {
  email: "bench-probe-orders@example.com",
  password: "bench-probe-orders-1",
  userName: "Probe Orders",
};
/** ZIP 10001 is Manhattan; Delaware has no sales tax. */
const MANHATTAN = {
  address: "20 W 34th St",
  city: "New York",
  pincode: "10001",
  phone: "555 0100",
  notes: "-",
};

/**
 * The people the probe needs that the API cannot make without a mail round
 * trip: a staff member holding only `staff`, and a disabled one holding more
 * (`orders`), set back to that state on every run.
 */
export async function prepareProbeAccounts(db: Database): Promise<void> {
  for (const [person, permissions] of [
    [STAFF, ["staff"]],
    [PRIVILEGED, ["orders", "staff"]],
  ] as const) {
    const values = {
      userName: person.userName,
      email: person.email,
      passwordHash: await hashPassword(person.password),
      role: "staff" as const,
      permissions: [...permissions],
      disabledAt: person === PRIVILEGED ? new Date() : null,
    };
    const existing = await db.models.User.findOne({ where: { email: person.email } });
    if (existing) await existing.update(values);
    else await db.models.User.create(values);
  }
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

export async function replayProbe(send: Send, origin: string): Promise<ProbeResult> {
  const json = { "Content-Type": "application/json" };
  // Each sign-in from a client address of its own: the bench's guessing rounds used up 127.0.0.1's allowance.
  let client = 0;
  const signIn = async (email: string, password: string) => {
    client += 1;
    const answer = await send("POST", "/api/auth/login", {
      headers: { ...json, "X-Forwarded-For": `10.77.0.${client}` },
      body: JSON.stringify({ email, password }),
    });
    if (answer.status !== 200)
      throw new Error(`sign-in of ${email} answered ${answer.status}: ${answer.body}`);
    const user = (parsed(answer).user ?? {}) as { id?: string };
    return { cookie: cookieOf(answer), id: user.id ?? "" };
  };
  const demoAdmin = DEMO_ACCOUNTS.find((account) => account.role === "admin")!;
  const admin = await signIn(demoAdmin.email, demoAdmin.password);
  const staff = await signIn(STAFF.email, STAFF.password);
  const shopperAccount = { email: `probe-shopper-${Date.now()}@example.com`, password: "probe-shopper-42" };
  const registered = await send("POST", "/api/auth/register", {
    headers: { ...json, "X-Forwarded-For": "10.77.1.1" },
    body: JSON.stringify({ userName: "Probe Shopper", ...shopperAccount }),
  });
  if (registered.status !== 201) throw new Error(`registration answered ${registered.status}`);
  const shopper = await signIn(shopperAccount.email, shopperAccount.password);
  const as = (who: { cookie: string }, extra: Record<string, string> = {}) => ({
    ...json,
    Cookie: who.cookie,
    ...extra,
  });

  const reference = async () => {
    const times: number[] = [];
    for (let i = 0; i < 20; i += 1) times.push((await send("GET", "/api/shop/products/get")).ms);
    return median(times);
  };
  const referenceBefore = await reference();

  const cases: ProbeCase[] = [];
  /** Sends `request` REPEATS times (a refusal changes nothing, so each answer should be the same). */
  const probe = async (
    label: string,
    expected: number[],
    request: () => Promise<Answer>,
    check?: (first: Answer) => Promise<string | null> | string | null,
  ) => {
    const answers: Answer[] = [];
    for (let i = 0; i < REPEATS; i += 1) answers.push(await request());
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
    () =>
      send("POST", "/shop/addresses", {
        // As a browser at the shop's own address posts it: React Router checks Origin against Host too.
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Cookie: shopper.cookie,
          Host: new URL(origin).host,
          Origin: origin,
        },
        body: new URLSearchParams({ intent: "addAddress", ...contradicting }).toString(),
      }),
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

  // --- Staff, API keys, two-factor sign-in.
  await probe("staff: `staff` alone resets a shopper's two-factor", [404], () =>
    send("DELETE", `/api/admin/staff/${shopper.id}/two-factor`, { headers: as(staff) }),
  );
  await probe(
    "account: `Bearer junk` + shopper's cookie + Origin http://evil.example change the user name",
    [401, 403],
    () =>
      send("POST", "/api/account/user-name", {
        headers: as(shopper, { Authorization: "Bearer junk", Origin: "http://evil.example" }),
        body: JSON.stringify({ userName: "Probe Hijacked" }),
      }),
    async () => {
      const me = parsed(await send("GET", "/api/auth/check-auth", { headers: as(shopper) }));
      const name = ((me.user ?? {}) as { userName?: string }).userName;
      return name === "Probe Hijacked" ? "the user name changed" : null;
    },
  );
  const namedLikeAdmin: string[] = [];
  await probe("api keys: a key named like an admin (`Demo Admin`)", [], async () => {
    const answer = await send("POST", "/api/admin/api-keys", {
      headers: as(admin),
      body: JSON.stringify({ name: "Demo Admin", permissions: ["orders"] }),
    });
    const id = ((parsed(answer).data ?? {}) as { _id?: string })._id;
    if (id) namedLikeAdmin.push(id);
    return answer;
  });
  for (const id of namedLikeAdmin) await send("DELETE", `/api/admin/api-keys/${id}`, { headers: as(admin) });
  const ordersKey = await send("POST", "/api/admin/api-keys", {
    headers: as(admin),
    body: JSON.stringify({ name: "Probe orders key", permissions: ["orders"] }),
  });
  const ordersKeyId = ((parsed(ordersKey).data ?? {}) as { _id?: string })._id ?? "none";
  await probe("api keys: `staff` alone revokes a key holding `orders`", [403], () =>
    send("DELETE", `/api/admin/api-keys/${ordersKeyId}`, { headers: as(staff) }),
  );
  await send("DELETE", `/api/admin/api-keys/${ordersKeyId}`, { headers: as(admin) });
  const staffList = (parsed(await send("GET", "/api/admin/staff", { headers: as(admin) })).data ?? []) as {
    _id: string;
    email: string;
  }[];
  const privileged = staffList.find((member) => member.email === PRIVILEGED.email)?._id ?? "none";
  await probe("staff: `staff` alone enables a disabled member holding `orders`", [403], () =>
    send("PUT", `/api/admin/staff/${privileged}`, {
      headers: as(staff),
      body: JSON.stringify({ disabled: false }),
    }),
  );
  await probe("two-factor: enrolment without the password", [400, 401, 403], () =>
    send("POST", "/api/account/two-factor", { headers: as(shopper), body: "{}" }),
  );
  await probe("two-factor: enrolment with a wrong password", [400, 401, 403], () =>
    send("POST", "/api/account/two-factor", {
      headers: as(shopper),
      body: JSON.stringify({ password: "not-the-password" }),
    }),
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
    "| Probe request | Expected | Answered | Time (median, max of " + REPEATS + ") | Result |",
    "| --- | --- | --- | --- | --- |",
    ...result.cases.map(
      (probeCase) =>
        `| ${probeCase.label} | ${probeCase.expected.length ? probeCase.expected.join(" or ") : "recorded"} | ${distinct(probeCase.statuses)} | ${probeCase.medianMs.toFixed(1)} ms, ${probeCase.maxMs.toFixed(1)} ms | ${
          probeCase.statuses.some((status) => status >= 500)
            ? "**5xx**"
            : asExpected(probeCase)
              ? "as expected"
              : `**mismatch**${probeCase.problem ? ` (${probeCase.problem})` : ""}`
        } |`,
    ),
  ];
}
