import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";

/**
 * TOTP as RFC 6238 fixes it for authenticator apps: HMAC-SHA-1, 6 digits, 30-second steps, a code
 * of the step before or after the current one still accepted (a phone's clock drifts; typing
 * takes time). The arithmetic is the `otpauth` library's; which step a code belongs to is ours,
 * so that a code can be accepted once (the caller remembers the last step used).
 */

export const TOTP_PARAMETERS = { algorithm: "SHA1", digits: 6, period: 30, window: 1 } as const;

/** 20 random bytes (160 bits, RFC 4226's recommended length) as base32, the form apps take. */
export function generateTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secretBase32: string, label = "account", issuer = "") {
  return new TOTP({
    issuer,
    label,
    algorithm: TOTP_PARAMETERS.algorithm,
    digits: TOTP_PARAMETERS.digits,
    period: TOTP_PARAMETERS.period,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The 30-second step of `atMs` (RFC 6238's T). */
export function totpStepAt(atMs: number): number {
  return Math.floor(atMs / 1000 / TOTP_PARAMETERS.period);
}

/** The code of `secretBase32` at `atMs` (for tests, and the e2e test's "authenticator"). */
export function totpCodeAt(secretBase32: string, atMs: number): string {
  return totpOf(secretBase32).generate({ timestamp: atMs });
}

/**
 * The step whose code `code` is, within one step of `atMs`, or null. The comparison is the
 * library's constant-time one.
 */
export function matchTotpStep(secretBase32: string, code: string, atMs: number): number | null {
  const delta = totpOf(secretBase32).validate({
    token: code,
    timestamp: atMs,
    window: TOTP_PARAMETERS.window,
  });
  return delta === null ? null : totpStepAt(atMs) + delta;
}

/** The otpauth:// URL an authenticator app reads from the QR code (Key URI format). */
export function totpUrl(secretBase32: string, accountName: string, issuer: string): string {
  return totpOf(secretBase32, accountName, issuer).toString();
}

/** The QR code of `text` as an SVG element, drawn on the server (no JavaScript in the page). */
export async function qrCodeSvg(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 4 });
  // An accessible name for the picture; the secret is also printed beside it as text.
  return svg.replace("<svg ", '<svg role="img" aria-label="QR code for your authenticator app" ');
}
