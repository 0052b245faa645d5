import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  AddressRefusedError,
  isPrivateAddress,
  resolvePublicTarget,
} from "../../app/lib/server/address-guard.server";
import { newWebhookSecret, signWebhook, verifyWebhook } from "../../app/lib/server/standard-webhooks.server";

/** The private-network guard of outgoing webhooks, and their Standard Webhooks signature. */

describe("the private-network guard", () => {
  it.each([
    "127.0.0.1",
    "10.0.0.1",
    "172.16.5.4",
    "172.31.255.255",
    "192.168.0.10",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fd12:3456::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "not an address",
  ])("refuses %s", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])(
    "lets %s through",
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );

  // IPv6 forms that carry an IPv4 address are judged by that IPv4 address: IPv4-compatible, IPv4-mapped,
  // IPv4-translated (SIIT), NAT64's well-known prefix and 6to4. NAT64's local-use prefix is a local
  // network's own, and Teredo's block (2001::/32) was refused already with the rest of 2001::/23.
  it.each([
    "::127.0.0.1",
    "::7f00:1",
    "::10.0.0.1",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "::ffff:0:7f00:1",
    "::ffff:0:127.0.0.1",
    "::ffff:0:c0a8:101",
    "64:ff9b::7f00:1",
    "64:ff9b::169.254.169.254",
    "64:ff9b:1::7f00:1",
    "64:ff9b:1:7f00:1::",
    "2002:7f00:1::",
    "2002:a00:1:1::1",
    "2002:c0a8:101::",
    "2001::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
  ])("refuses %s, which carries a private IPv4 address", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    "::808:808",
    "::ffff:0:808:808",
    "64:ff9b::808:808",
    "64:ff9b::93.184.216.34",
    "2002:5db8:d822::1",
  ])("lets %s through, which carries a public IPv4 address", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it("refuses the probe's URLs whose IPv6 literals carry 127.0.0.1", async () => {
    const guard = { allowHttp: false, allowPrivate: false };
    for (const url of [
      "https://[::127.0.0.1]/x",
      "https://[::ffff:0:7f00:1]/x",
      "https://[64:ff9b:1::7f00:1]/x",
      "https://[2002:7f00:1::]/x",
    ]) {
      await expect(resolvePublicTarget(url, guard), url).rejects.toThrow(/private/);
    }
  });

  it("refuses a name when any of its addresses is private, and answers the checked address to connect to", async () => {
    const guard = (answers: string[]) => ({
      allowHttp: false,
      allowPrivate: false,
      resolve: () =>
        Promise.resolve(answers.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))),
    });
    await expect(
      resolvePublicTarget("https://hooks.example.com/x", guard(["93.184.216.34", "10.0.0.8"])),
    ).rejects.toThrow(AddressRefusedError);
    const target = await resolvePublicTarget("https://hooks.example.com/x", guard(["93.184.216.34"]));
    expect(target).toMatchObject({ address: "93.184.216.34", family: 4 });
    // The same name answering a private address later (rebinding) is refused at that send.
    await expect(resolvePublicTarget("https://hooks.example.com/x", guard(["127.0.0.1"]))).rejects.toThrow(
      /private/,
    );
    await expect(resolvePublicTarget("http://hooks.example.com/x", guard(["93.184.216.34"]))).rejects.toThrow(
      /https/,
    );
    await expect(
      resolvePublicTarget("https://user:pw@hooks.example.com/x", guard(["93.184.216.34"])),
    ).rejects.toThrow(/user name/);
  });
});

describe("the Standard Webhooks signature", () => {
  it("is v1, + base64 HMAC-SHA256 of id.timestamp.body keyed with the secret's decoded bytes", () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const body = '{"type":"order.paid","timestamp":"2026-11-27T05:00:00.000Z","data":{}}';
    const expected = createHmac("sha256", Buffer.from("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "base64"))
      .update(`msg_1.1700000000.${body}`)
      .digest("base64");
    expect(signWebhook(secret, "msg_1", 1700000000, body)).toBe(`v1,${expected}`);
  });

  it("verifies as a receiver does: any of several signatures, within the tolerance, not for another body", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const now = 1_800_000_000;
    const signature = signWebhook(secret, "evt", now, "{}");
    const headers = { id: "evt", timestamp: String(now), signature: `v1,bm9wZQ== ${signature}` };
    expect(verifyWebhook(secret, headers, "{}", { nowSeconds: now + 10 })).toBe(true);
    expect(verifyWebhook(secret, headers, "{ }", { nowSeconds: now })).toBe(false);
    expect(verifyWebhook(secret, headers, "{}", { nowSeconds: now + 3600 })).toBe(false);
    expect(verifyWebhook(newWebhookSecret(), headers, "{}", { nowSeconds: now })).toBe(false);
  });
});
