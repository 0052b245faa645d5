import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { parseMail, type ReceivedMail } from "../../support/mail";

/** Where the e2e server's outbox sender writes its mails, one .eml file each (`<time>-<kind>-<id>.eml`). */
const MAIL_DIR = path.resolve(process.env.E2E_DATA_DIR ?? ".data-e2e", "mail");

/**
 * The newest mail of `kind` (the outbox's kind: "staff-invite", "stock-alert", "password-reset") to `email`,
 * waiting for the sender's next rounds to write it.
 */
export async function waitForMail(kind: string, email: string, timeout = 40_000): Promise<ReceivedMail> {
  let found: ReceivedMail | null = null;
  await expect
    .poll(
      () => {
        if (!existsSync(MAIL_DIR)) return null;
        const mails = readdirSync(MAIL_DIR)
          .filter((name) => name.endsWith(".eml") && name.includes(`-${kind}-`))
          .sort()
          .map((name) => parseMail(readFileSync(path.join(MAIL_DIR, name), "utf8")))
          .filter((mail) => mail.to === email);
        found = mails.at(-1) ?? null;
        return found;
      },
      { timeout, intervals: [500, 1000, 2000], message: `a ${kind} mail to ${email} in ${MAIL_DIR}` },
    )
    .not.toBeNull();
  return found!;
}
