import { parseArgs } from "node:util";
import { isAppError } from "../app/lib/server/errors.server";
import { SCRIPT_CHANGE } from "../app/services/audit.server";
import { resetTwoFactor } from "../app/services/two-factor.server";
import { exitWithUsageError, withDatabase } from "./with-database";

/**
 * `npm run reset-two-factor -- --email E`: turns off someone's two-factor sign-in from the command
 * line, for the one case the back office cannot handle: the last admin who lost both their phone and
 * their backup codes. On the audit log as the script's, and the owner is mailed, as an admin's reset is.
 */

const USAGE = "Usage: npm run reset-two-factor -- --email E";

function readEmail(): string {
  let values;
  try {
    ({ values } = parseArgs({ options: { email: { type: "string" } } }));
  } catch (error) {
    return exitWithUsageError(`${(error as Error).message}\n${USAGE}`);
  }
  const email = values.email?.trim().toLowerCase();
  if (!email) return exitWithUsageError(`--email is required\n${USAGE}`);
  return email;
}

const email = readEmail();
await withDatabase(async (db) => {
  const user = await db.models.User.findOne({ where: { email }, attributes: ["id"], raw: true });
  if (!user) {
    console.error(`No account has the email ${email}.`);
    process.exitCode = 1;
    return;
  }
  try {
    await resetTwoFactor(user.id, SCRIPT_CHANGE, "server");
    console.log(
      `Two-factor sign-in is reset for ${email}: they sign in with their password and set it up again.`,
    );
  } catch (error) {
    if (!isAppError(error) || error.status !== 409) throw error;
    console.log(`${email} has no two-factor sign-in; nothing changed.`);
  }
});
