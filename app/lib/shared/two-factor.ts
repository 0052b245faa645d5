/**
 * Two-factor sign-in as the pages, the API and the browser share it: the forms' intents, the
 * messages, and the code's shape. The rules live in app/services/two-factor.server.ts and
 * app/services/two-factor-challenge.server.ts (docs/decisions/0034-two-factor-sign-in.md).
 */

/** The `intent` of each two-factor form of the account pages (they post to the page's action). */
export const TWO_FACTOR_INTENTS = {
  start: "two-factor-start",
  confirm: "two-factor-confirm",
  cancel: "two-factor-cancel",
  disable: "two-factor-disable",
  backupCodes: "two-factor-backup-codes",
} as const;

/** How many single-use backup codes an enrolment hands out. */
export const BACKUP_CODE_COUNT = 10;

/** How long a sign-in waits for its code (the challenge and its cookie). */
export const CHALLENGE_MINUTES = 5;

/** Wrong codes that end one sign-in's challenge. */
export const CHALLENGE_MAX_ATTEMPTS = 5;

export const TWO_FACTOR_TEXT = {
  codeRequired: "Enter the 6-digit code from your authenticator app, or a backup code",
  passwordRequired: "Enter your current password",
  challengeStarted: "Enter the 6-digit code from your authenticator app to finish signing in",
  wrongCode: "That code is not right. Check your authenticator app and try again",
  replayedCode: "That code has already been used. Wait for the next one",
  challengeExpired: "Your sign-in has expired. Please sign in again",
  challengeSpent: "Too many wrong codes. Please sign in again",
  alreadyOn: "Two-factor sign-in is already on",
  notOn: "Two-factor sign-in is off",
  notStarted: "Start turning two-factor sign-in on first",
  started: "Scan the QR code with your authenticator app, then enter its code",
  enabled: "Two-factor sign-in is on. Keep your backup codes somewhere safe",
  disabled: "Two-factor sign-in is off",
  newBackupCodes: "Here are your new backup codes: the old ones no longer work",
  cancelled: "Two-factor sign-in stays off",
  required: "Two-factor sign-in is required",
  requiredPage: "Two-factor sign-in is required for the back office: turn it on to continue",
  reset: "Two-factor sign-in is reset",
  resetSelf: "Turn your own two-factor sign-in off on your account page, with a code",
  resetNotOn: "Two-factor sign-in is not on for this person",
  resetAdminOnly: "Only an admin can reset an admin's two-factor sign-in",
} as const;

/** A code as typed: spaces and dashes go, letters are lower-cased (backup codes are shown in groups). */
export function normaliseCode(input: string): string {
  return input.replace(/[\s-]+/g, "").toLowerCase();
}

/** An authenticator's code: six digits (anything else is taken as a backup code). */
export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code);
}

/** The most a typed code may be (a backup code with its dashes and some spaces). */
export const CODE_MAX_LENGTH = 32;
