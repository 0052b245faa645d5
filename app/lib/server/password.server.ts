import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * Password hashing with scrypt from node:crypto. The stored form carries its
 * parameters (`scrypt$N$r$p$salt$hash`) so that the cost can be raised later
 * without invalidating existing hashes.
 */

const COST = 2 ** 14;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 64;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize("NFKC"), salt, keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, { N: COST, r: BLOCK_SIZE, p: PARALLELISM });
  return ["scrypt", COST, BLOCK_SIZE, PARALLELISM, salt.toString("base64"), key.toString("base64")].join("$");
}

/** False for a wrong password and for a stored hash that is not one of ours (never throws). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, keyText, ...rest] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !saltText || !keyText || rest.length) return false;
  const expected = Buffer.from(keyText, "base64");
  const salt = Buffer.from(saltText, "base64");
  // An empty (undecodable) key would compare equal to an empty derived key: refuse it.
  if (expected.length < 16 || salt.length === 0) return false;
  try {
    const actual = await scrypt(password, salt, expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
    });
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  } catch {
    // Parameters scrypt refuses (NaN, not a power of two, over the memory limit).
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/**
 * A real hash of a random password, computed once. Login checks an unknown
 * email against it so that an unknown email costs the same time as a wrong
 * password and reveals nothing.
 */
export function getDummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  return dummyHash;
}
