import { beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "../../app/models/db.server";
import { MAX_ADDRESSES_MESSAGE } from "../../app/lib/shared/address-schema";
import { action as addApi } from "../../app/routes/api.shop.address.add";
import { action as deleteApi } from "../../app/routes/api.shop.address.delete.$userId.$addressId";
import { loader as getApi } from "../../app/routes/api.shop.address.get.$userId";
import { action as updateApi } from "../../app/routes/api.shop.address.update.$userId.$addressId";
import { action as pageAction, loader as pageLoader } from "../../app/routes/shop.addresses";
import {
  addAddress,
  deleteAddress,
  getAddress,
  listAddresses,
  updateAddress,
  type AddressJson,
} from "../../app/services/addresses.server";
import { createTestUser, resetDatabase } from "../support/database";
import { cookieFrom, sessionCookieFor } from "../support/requests";
import { formRequest, jsonRequest, readApi, run } from "./admin-support";

/** SPEC §2 Address manager, §5, §9; API.md Addresses and "Who may call what". */

const HOME = {
  address: "12 Baker Street",
  city: "London",
  pincode: "NW1 6XE",
  phone: "+44 20 7946 0000",
  notes: "Blue door",
};
const WORK = {
  address: "1 Infinite Loop",
  city: "Cupertino",
  pincode: "95014",
  phone: "408-996-1010",
  notes: "Reception",
};
/** What a client that never sends a country gets: the shop's (US), and the state of a US ZIP code. */
const HOME_SAVED = { ...HOME, country: "US", region: null };
const WORK_SAVED = { ...WORK, country: "US", region: "CA" };
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

interface Caller {
  id: string;
  cookie: string;
}

let shopper: Caller;
let otherShopper: Caller;
let admin: Caller;

async function signedIn(role: "user" | "admin" = "user"): Promise<Caller> {
  const user = await createTestUser({ role });
  return { id: user.id, cookie: await sessionCookieFor(user.id) };
}

beforeEach(async () => {
  await resetDatabase();
  shopper = await signedIn();
  otherShopper = await signedIn();
  admin = await signedIn("admin");
});

describe("addresses (service)", () => {
  it("adds an address with every field trimmed and lists the user's addresses oldest first", async () => {
    const first = await addAddress(shopper.id, {
      address: "  12 Baker Street ",
      city: "\tLondon",
      pincode: " NW1 6XE ",
      phone: " +44 20 7946 0000",
      notes: "Blue door  ",
    });
    expect(first).toEqual({ _id: expect.any(String), userId: shopper.id, ...HOME_SAVED });
    const second = await addAddress(shopper.id, WORK);
    await addAddress(otherShopper.id, WORK);
    expect((await listAddresses(shopper.id)).map((a) => a._id)).toEqual([first._id, second._id]);
    expect(await getAddress(shopper.id, first._id)).toEqual(first);
  });

  it("lists addresses in the order they were added, even when added within one millisecond", async () => {
    // The app's clock stands still: whatever times the order, it is not a JavaScript Date.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-24T05:00:00.000Z") });
    try {
      // Four shoppers with three addresses each: tied stamps would match the order by chance once in 1,296 runs.
      const shoppers = [
        shopper.id,
        otherShopper.id,
        (await createTestUser()).id,
        (await createTestUser()).id,
      ];
      for (const userId of shoppers) {
        const added: string[] = [];
        for (const input of [HOME, WORK, { ...HOME, notes: "Side gate" }]) {
          added.push((await addAddress(userId, input))._id);
        }
        expect((await listAddresses(userId)).map((a) => a._id)).toEqual(added);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ["a missing field", { ...HOME, notes: undefined }, "notes", "Notes is required"],
    ["a blank field", { ...HOME, city: "   " }, "city", "City is required"],
    ["an empty address", { ...HOME, address: "" }, "address", "Address is required"],
    ["a number instead of text", { ...HOME, phone: 5550100 }, "phone", "Phone is required"],
    ["an address over 200 characters", { ...HOME, address: "a".repeat(201) }, "address", "at most 200"],
    ["a city over 100 characters", { ...HOME, city: "c".repeat(101) }, "city", "at most 100"],
    ["a pincode over 20 characters", { ...HOME, pincode: "1".repeat(21) }, "pincode", "at most 20"],
    ["a phone over 30 characters", { ...HOME, phone: "5".repeat(31) }, "phone", "at most 30"],
    ["notes over 500 characters", { ...HOME, notes: "n".repeat(501) }, "notes", "at most 500"],
  ])("refuses %s with 400 and the field's message", async (_name, input, field, message) => {
    await expect(addAddress(shopper.id, input)).rejects.toMatchObject({
      status: 400,
      fieldErrors: { [field]: [expect.stringContaining(message)] },
    });
    expect(await listAddresses(shopper.id)).toEqual([]);
  });

  it("accepts every field at its maximum length", async () => {
    const longest = {
      address: "a".repeat(200),
      city: "c".repeat(100),
      pincode: "1".repeat(20),
      phone: "5".repeat(30),
      notes: "n".repeat(500),
    };
    expect(await addAddress(shopper.id, longest)).toMatchObject(longest);
  });

  it("refuses a fourth address with 409 'You can add max 3 addresses'", async () => {
    for (let i = 0; i < 3; i += 1) await addAddress(shopper.id, { ...HOME, address: `${i} Main St` });
    await expect(addAddress(shopper.id, WORK)).rejects.toMatchObject({
      status: 409,
      message: MAX_ADDRESSES_MESSAGE,
    });
    expect(await listAddresses(shopper.id)).toHaveLength(3);
    // Another shopper's limit is their own.
    await expect(addAddress(otherShopper.id, WORK)).resolves.toMatchObject(WORK);
  });

  it("ends five parallel adds for a user with no addresses with exactly three", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => addAddress(shopper.id, { ...HOME, address: `${i} Race Road` })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused).toHaveLength(2);
    for (const r of refused) expect(r.reason).toMatchObject({ status: 409, message: MAX_ADDRESSES_MESSAGE });
    expect(await getDb().models.Address.count({ where: { userId: shopper.id } })).toBe(3);
  });

  it("allows editing when three addresses exist, and adding again after a delete", async () => {
    const addresses: AddressJson[] = [];
    for (let i = 0; i < 3; i += 1)
      addresses.push(await addAddress(shopper.id, { ...HOME, address: `${i} St` }));
    const edited = await updateAddress(shopper.id, addresses[0]!._id, { ...WORK, city: "  San Jose " });
    expect(edited).toEqual({ _id: addresses[0]!._id, userId: shopper.id, ...WORK_SAVED, city: "San Jose" });
    await deleteAddress(shopper.id, addresses[1]!._id);
    await expect(addAddress(shopper.id, HOME)).resolves.toMatchObject(HOME);
  });

  it("treats another shopper's address, an unknown id and a malformed id as 404 for get, update and delete", async () => {
    const theirs = await addAddress(otherShopper.id, HOME);
    for (const id of [theirs._id, UNKNOWN_ID, "not-a-uuid", "", null]) {
      await expect(getAddress(shopper.id, id)).rejects.toMatchObject({
        status: 404,
        message: "Address not found",
      });
      await expect(updateAddress(shopper.id, id, WORK)).rejects.toMatchObject({ status: 404 });
      await expect(deleteAddress(shopper.id, id)).rejects.toMatchObject({ status: 404 });
    }
    expect(await getAddress(otherShopper.id, theirs._id)).toEqual(theirs);
  });

  it("refuses NUL and other control characters with a 400 that names the field, keeping tab and line breaks", async () => {
    await expect(addAddress(shopper.id, { ...HOME, address: "12 Main St\u0000" })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { address: ["Address cannot contain control characters (such as NUL)"] },
    });
    await expect(addAddress(shopper.id, { ...HOME, notes: "ring\u001bthe bell" })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { notes: ["Notes cannot contain control characters (such as NUL)"] },
    });
    expect(await listAddresses(shopper.id)).toEqual([]);
    const kept = await addAddress(shopper.id, { ...HOME, notes: "Ring twice\nthen wait\tplease" });
    expect(kept.notes).toBe("Ring twice\nthen wait\tplease");
  });

  it("validates an update like an add and leaves the address as it was", async () => {
    const mine = await addAddress(shopper.id, HOME);
    await expect(updateAddress(shopper.id, mine._id, { ...WORK, pincode: " " })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { pincode: ["Pincode is required"] },
    });
    expect(await getAddress(shopper.id, mine._id)).toEqual(mine);
  });
});

describe("the address API", () => {
  const addPath = "/api/shop/address/add";

  it("adds for the signed-in shopper: 201 with the message and the address", async () => {
    const response = await run(
      addApi,
      jsonRequest(addPath, { json: { ...HOME, userId: shopper.id }, cookie: shopper.cookie }),
    );
    expect(response.status).toBe(201);
    expect(await readApi(response)).toEqual({
      success: true,
      message: "Address added successfully",
      data: { _id: expect.any(String), userId: shopper.id, ...HOME_SAVED },
    });
  });

  it("adds for the session user when the body names no userId", async () => {
    const response = await run(addApi, jsonRequest(addPath, { json: HOME, cookie: shopper.cookie }));
    expect(response.status).toBe(201);
    expect(await listAddresses(shopper.id)).toHaveLength(1);
  });

  it("answers 401 anonymous, 403 an admin and 403 a userId of another shopper, adding nothing", async () => {
    const cases: [string | null, unknown, number][] = [
      [null, shopper.id, 401],
      [admin.cookie, admin.id, 403],
      [shopper.cookie, otherShopper.id, 403],
      [shopper.cookie, "not-a-uuid", 403],
    ];
    for (const [cookie, userId, status] of cases) {
      const response = await run(addApi, jsonRequest(addPath, { json: { ...HOME, userId }, cookie }));
      expect(response.status, `userId ${String(userId)}`).toBe(status);
      expect((await readApi(response)).success).toBe(false);
    }
    expect(await getDb().models.Address.count()).toBe(0);
  });

  it("answers 401 before looking at the body of an anonymous caller", async () => {
    const response = await run(
      addApi,
      jsonRequest(addPath, { body: "address=1", contentType: "application/x-www-form-urlencoded" }),
    );
    expect(response.status).toBe(401);
  });

  it.each([
    ["a form body", { body: "address=1", contentType: "application/x-www-form-urlencoded" }, 415],
    ["broken JSON", { body: "{", contentType: "application/json" }, 400],
    ["a JSON array", { body: "[]", contentType: "application/json" }, 400],
    ["a JSON string", { body: '"12 Baker Street"', contentType: "application/json" }, 400],
    ["JSON null", { body: "null", contentType: "application/json" }, 400],
  ])("answers %s with %i and a JSON message", async (_name, options, status) => {
    const response = await run(addApi, jsonRequest(addPath, { ...options, cookie: shopper.cookie }));
    expect(response.status).toBe(status);
    const body = await readApi(response);
    expect(body.success).toBe(false);
    expect(body.message).toEqual(expect.any(String));
  });

  it("answers invalid fields with 400 and `errors` for every bad field", async () => {
    const response = await run(
      addApi,
      jsonRequest(addPath, {
        json: { address: " ", city: "x".repeat(101), pincode: "1" },
        cookie: shopper.cookie,
      }),
    );
    expect(response.status).toBe(400);
    const body = await readApi(response);
    expect(body).toMatchObject({ success: false, message: "Please fill in every address field" });
    expect(Object.keys(body.errors ?? {}).sort()).toEqual(["address", "city", "notes", "phone"]);
  });

  it("answers the fourth address with 409 'You can add max 3 addresses'", async () => {
    for (let i = 0; i < 3; i += 1) await addAddress(shopper.id, { ...HOME, address: `${i} Main St` });
    const response = await run(
      addApi,
      jsonRequest(addPath, { json: { ...WORK, userId: shopper.id }, cookie: shopper.cookie }),
    );
    expect(response.status).toBe(409);
    expect(await readApi(response)).toEqual({ success: false, message: "You can add max 3 addresses" });
  });

  it("lists only the caller's own addresses: 200 for the shopper, 401/403 otherwise", async () => {
    const mine = await addAddress(shopper.id, HOME);
    await addAddress(otherShopper.id, WORK);
    const own = await run(
      getApi,
      jsonRequest(`/api/shop/address/get/${shopper.id}`, { cookie: shopper.cookie }),
      {
        userId: shopper.id,
      },
    );
    expect(own.status).toBe(200);
    expect(await readApi(own)).toEqual({ success: true, data: [mine] });

    const empty = await run(
      getApi,
      jsonRequest(`/api/shop/address/get/${otherShopper.id}`, { cookie: otherShopper.cookie }),
      { userId: otherShopper.id },
    );
    expect((await readApi(empty)).data).toHaveLength(1);

    for (const [cookie, userId, status] of [
      [null, shopper.id, 401],
      [admin.cookie, admin.id, 403],
      [otherShopper.cookie, shopper.id, 403],
    ] as const) {
      const response = await run(getApi, jsonRequest(`/api/shop/address/get/${userId}`, { cookie }), {
        userId,
      });
      expect(response.status).toBe(status);
      expect(await readApi(response)).toMatchObject({ success: false });
    }
  });

  it("updates the caller's address: 200 with the message and the new fields", async () => {
    const mine = await addAddress(shopper.id, HOME);
    const params = { userId: shopper.id, addressId: mine._id };
    const response = await run(
      updateApi,
      jsonRequest(`/api/shop/address/update/${shopper.id}/${mine._id}`, {
        method: "PUT",
        json: { ...WORK, userId: shopper.id },
        cookie: shopper.cookie,
      }),
      params,
    );
    expect(response.status).toBe(200);
    expect(await readApi(response)).toEqual({
      success: true,
      message: "Address updated successfully",
      data: { _id: mine._id, userId: shopper.id, ...WORK_SAVED },
    });
  });

  it("answers an update of another shopper's, an unknown or a malformed address with 404 and changes nothing", async () => {
    const theirs = await addAddress(otherShopper.id, HOME);
    for (const addressId of [theirs._id, UNKNOWN_ID, "nope"]) {
      const response = await run(
        updateApi,
        jsonRequest(`/api/shop/address/update/${shopper.id}/${addressId}`, {
          method: "PUT",
          json: WORK,
          cookie: shopper.cookie,
        }),
        { userId: shopper.id, addressId },
      );
      expect(response.status).toBe(404);
      expect(await readApi(response)).toEqual({ success: false, message: "Address not found" });
    }
    expect(await getAddress(otherShopper.id, theirs._id)).toEqual(theirs);
  });

  it("answers updates of anonymous, admin, foreign userId, non-JSON and invalid bodies with 401/403/403/415/400", async () => {
    const mine = await addAddress(shopper.id, HOME);
    const path = `/api/shop/address/update/${shopper.id}/${mine._id}`;
    const cases: [string | null, string, { json?: unknown; body?: string; contentType?: string }, number][] =
      [
        [null, shopper.id, { json: WORK }, 401],
        [admin.cookie, shopper.id, { json: WORK }, 403],
        [otherShopper.cookie, shopper.id, { json: WORK }, 403],
        [shopper.cookie, shopper.id, { body: "city=x", contentType: "text/plain" }, 415],
        [shopper.cookie, shopper.id, { json: { ...WORK, notes: "" } }, 400],
      ];
    for (const [cookie, userId, body, status] of cases) {
      const response = await run(updateApi, jsonRequest(path, { method: "PUT", ...body, cookie }), {
        userId,
        addressId: mine._id,
      });
      expect(response.status).toBe(status);
      expect((await readApi(response)).success).toBe(false);
    }
    expect(await getAddress(shopper.id, mine._id)).toEqual(mine);
  });

  it("deletes the caller's address (200), then answers 404 for it, and never deletes another's", async () => {
    const mine = await addAddress(shopper.id, HOME);
    const theirs = await addAddress(otherShopper.id, WORK);
    const del = (addressId: string, cookie: string | null, userId = shopper.id) =>
      run(
        deleteApi,
        jsonRequest(`/api/shop/address/delete/${userId}/${addressId}`, { method: "DELETE", cookie }),
        {
          userId,
          addressId,
        },
      );

    expect((await del(mine._id, null)).status).toBe(401);
    expect((await del(mine._id, admin.cookie)).status).toBe(403);
    expect((await del(mine._id, otherShopper.cookie)).status).toBe(403);
    expect((await del(theirs._id, shopper.cookie)).status).toBe(404);
    expect((await del("malformed", shopper.cookie)).status).toBe(404);

    const response = await del(mine._id, shopper.cookie);
    expect(response.status).toBe(200);
    expect(await readApi(response)).toEqual({
      success: true,
      message: "Address deleted successfully",
      data: mine,
    });
    expect((await del(mine._id, shopper.cookie)).status).toBe(404);
    expect(await listAddresses(otherShopper.id)).toEqual([theirs]);
  });

  it("answers other methods with 405 JSON", async () => {
    const response = await run(
      getApi,
      jsonRequest(`/api/shop/address/get/${shopper.id}`, { method: "POST", json: {} }),
      {
        userId: shopper.id,
      },
    );
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET");
  });
});

describe("the addresses page (no JavaScript needed)", () => {
  const PAGE = "/shop/addresses";

  async function flashOf(response: Response) {
    const cookie = cookieFrom(response);
    const root = await import("../../app/root");
    const next = await run(root.loader, jsonRequest("/", { cookie }));
    return ((await next.json()) as { flash: { type: string; message: string } | null }).flash;
  }

  it("sends an anonymous visitor to sign in and an admin to the dashboard", async () => {
    const anonymous = await run(pageLoader, jsonRequest(PAGE));
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe("/auth/login?redirectTo=%2Fshop%2Faddresses");
    const asAdmin = await run(pageAction, formRequest(PAGE, { intent: "addAddress", ...HOME }, admin.cookie));
    expect(asAdmin.headers.get("Location")).toBe("/admin/dashboard");
    expect(await getDb().models.Address.count()).toBe(0);
  });

  it("adds an address from the form and redirects with 'Address added successfully'", async () => {
    const response = await run(
      pageAction,
      formRequest(PAGE, { intent: "addAddress", ...HOME }, shopper.cookie),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(PAGE);
    expect(await flashOf(response)).toEqual({ type: "success", message: "Address added successfully" });
    expect(await listAddresses(shopper.id)).toMatchObject([HOME]);
  });

  it("answers blank fields with 400, field errors and what was typed, and adds nothing", async () => {
    const response = await run(
      pageAction,
      formRequest(PAGE, { intent: "addAddress", ...HOME, city: "  ", phone: "" }, shopper.cookie),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      addressForm: { error: Record<string, string[]>; initialValue: Record<string, string> };
    };
    expect(body.addressForm.error).toMatchObject({
      city: ["City is required"],
      phone: ["Phone is required"],
    });
    expect(body.addressForm.initialValue).toMatchObject({ address: HOME.address, notes: HOME.notes });
    expect(await listAddresses(shopper.id)).toEqual([]);
  });

  it("refuses the fourth address with a destructive 'You can add max 3 addresses' and a fresh form", async () => {
    for (let i = 0; i < 3; i += 1) await addAddress(shopper.id, { ...HOME, address: `${i} Main St` });
    const response = await run(
      pageAction,
      formRequest(PAGE, { intent: "addAddress", ...WORK }, shopper.cookie),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(PAGE);
    expect(await flashOf(response)).toEqual({ type: "error", message: "You can add max 3 addresses" });
    expect(await listAddresses(shopper.id)).toHaveLength(3);
  });

  it("shows the edit form for ?editAddress=ID of the shopper's own address only", async () => {
    const mine = await addAddress(shopper.id, HOME);
    const theirs = await addAddress(otherShopper.id, WORK);
    const own = await run(
      pageLoader,
      jsonRequest(`${PAGE}?editAddress=${mine._id}`, { cookie: shopper.cookie }),
    );
    expect(await own.json()).toEqual({ addresses: [mine], editing: mine });
    for (const id of [theirs._id, "junk"]) {
      const other = await run(
        pageLoader,
        jsonRequest(`${PAGE}?editAddress=${id}`, { cookie: shopper.cookie }),
      );
      expect(await other.json()).toEqual({ addresses: [mine], editing: null });
    }
  });

  it("updates from the edit form and leaves the edit state with 'Address updated successfully'", async () => {
    const mine = await addAddress(shopper.id, HOME);
    const response = await run(
      pageAction,
      formRequest(
        `${PAGE}?editAddress=${mine._id}`,
        { intent: "updateAddress", addressId: mine._id, ...WORK },
        shopper.cookie,
      ),
    );
    expect(response.headers.get("Location")).toBe(PAGE);
    expect(await flashOf(response)).toEqual({ type: "success", message: "Address updated successfully" });
    expect(await getAddress(shopper.id, mine._id)).toMatchObject(WORK);
  });

  it("deletes from the card's form with 'Address deleted successfully'; another's id flashes 'Address not found'", async () => {
    const mine = await addAddress(shopper.id, HOME);
    const theirs = await addAddress(otherShopper.id, WORK);
    const refused = await run(
      pageAction,
      formRequest(PAGE, { intent: "deleteAddress", addressId: theirs._id }, shopper.cookie),
    );
    expect(await flashOf(refused)).toEqual({ type: "error", message: "Address not found" });
    const response = await run(
      pageAction,
      formRequest(PAGE, { intent: "deleteAddress", addressId: mine._id }, shopper.cookie),
    );
    expect(await flashOf(response)).toEqual({ type: "success", message: "Address deleted successfully" });
    expect(await listAddresses(shopper.id)).toEqual([]);
    expect(await listAddresses(otherShopper.id)).toEqual([theirs]);
  });

  it("answers an unknown intent with a flash, not an error page", async () => {
    const response = await run(pageAction, formRequest(PAGE, { intent: "launchRocket" }, shopper.cookie));
    expect(response.status).toBe(302);
    expect(await flashOf(response)).toEqual({ type: "error", message: "Unknown action" });
  });
});
