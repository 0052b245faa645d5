import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getConfig } from "./config.server";

/**
 * Small secrets the shop must read back (a TOTP secret) are stored encrypted: AES-256-GCM under
 * a key derived (HKDF-SHA256) from SESSION_SECRET. SESSION_SECRET is a list, newest first: the
 * first key encrypts, every key decrypts, so a rotation that keeps the old secret in the list
 * keeps every stored secret readable. A database dump alone reveals none of them.
 *
 * Stored form: `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */

const VERSION = "v1";

function keyOf(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "shop-secret-box", purpose, 32));
}

export function sealSecret(plain: string, purpose: string): string {
  const key = keyOf(getConfig().sessionSecrets[0]!, purpose);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** The plain secret, or null when no key of SESSION_SECRET opens it (a secret rotated away). */
export function openSecret(stored: string, purpose: string): string | null {
  const [version, ivText, tagText, sealedText] = stored.split(".");
  if (version !== VERSION || !ivText || !tagText || sealedText === undefined) return null;
  for (const secret of getConfig().sessionSecrets) {
    try {
      const decipher = createDecipheriv(
        "aes-256-gcm",
        keyOf(secret, purpose),
        Buffer.from(ivText, "base64url"),
      );
      decipher.setAuthTag(Buffer.from(tagText, "base64url"));
      return Buffer.concat([
        decipher.update(Buffer.from(sealedText, "base64url")),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      // Not this key: try the next one.
    }
  }
  return null;
}
