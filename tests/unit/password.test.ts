import { randomBytes, scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../app/lib/server/password.server";

describe("password hashing", () => {
  it("verifies the password it hashed", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
  });

  it("rejects a wrong password", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(await verifyPassword("correct horse batterY", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("uses a fresh salt each time, so equal passwords give different hashes", async () => {
    const [first, second] = await Promise.all([hashPassword("same-password"), hashPassword("same-password")]);
    expect(first).not.toBe(second);
    expect(first.split("$")[4]).not.toBe(second.split("$")[4]);
    expect(await verifyPassword("same-password", first)).toBe(true);
    expect(await verifyPassword("same-password", second)).toBe(true);
  });

  it("stores the scheme and its parameters with the salt and key (scrypt$N$r$p$salt$key)", async () => {
    const stored = await hashPassword("password123");
    const [scheme, n, r, p, salt, key, ...rest] = stored.split("$");
    expect(rest).toEqual([]);
    expect(scheme).toBe("scrypt");
    expect(Number(n)).toBeGreaterThanOrEqual(2 ** 14);
    expect(Number(r)).toBeGreaterThanOrEqual(8);
    expect(Number(p)).toBeGreaterThanOrEqual(1);
    expect(Buffer.from(salt!, "base64")).toHaveLength(16);
    expect(Buffer.from(key!, "base64")).toHaveLength(64);
    expect(stored).not.toContain("password123");
  });

  it("verifies a hash made with other parameters, read from the stored form", async () => {
    const salt = randomBytes(16);
    const key = scryptSync("older-cheaper-hash", salt, 32, { N: 1024, r: 8, p: 1 });
    const stored = ["scrypt", 1024, 8, 1, salt.toString("base64"), key.toString("base64")].join("$");
    expect(await verifyPassword("older-cheaper-hash", stored)).toBe(true);
    expect(await verifyPassword("another-password", stored)).toBe(false);
  });

  it("treats canonically equivalent Unicode spellings as the same password", async () => {
    const composed = "caf\u00e9-password";
    const decomposed = "cafe\u0301-password";
    const stored = await hashPassword(composed);
    expect(await verifyPassword(decomposed, stored)).toBe(true);
  });

  it.each([
    ["an empty string", ""],
    ["another scheme", "bcrypt$2b$10$abcdefghijklmnopqrstuv"],
    ["missing parts", "scrypt$16384$8$1$c2FsdA=="],
    ["a non-numeric cost", "scrypt$abc$8$1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5"],
    ["a cost scrypt refuses", "scrypt$3$8$1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5"],
    [
      "a cost above the memory limit",
      "scrypt$1073741824$8$1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5",
    ],
    ["an undecodable (empty) key", "scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA==$!!!!"],
    ["extra parts", "scrypt$16384$8$1$c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5$extra"],
  ])("answers false, without throwing, for a malformed stored hash: %s", async (_label, stored) => {
    await expect(verifyPassword("any password", stored)).resolves.toBe(false);
  });
});
