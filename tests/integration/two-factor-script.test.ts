import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { QueryTypes } from "sequelize";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { totpCodeAt } from "../../app/lib/server/totp.server";
import { getDb } from "../../app/models/db.server";
import { confirmEnrolment, isTwoFactorEnabled, startEnrolment } from "../../app/services/two-factor.server";
import { toSessionUser } from "../../app/services/users.server";
import { createTestUser, resetDatabase } from "../support/database";
import { runScript } from "../support/scripts";

/** The last admin who lost phone and backup codes: the command line resets their two-factor sign-in. */
describe("scripts/reset-two-factor.ts", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "shop-reset-two-factor-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  beforeEach(resetDatabase);

  const resetFor = (args: string[]) => runScript("reset-two-factor.ts", args, { dataDir });

  it("turns it off, on the audit log as the script's, and says when there was nothing to reset", async () => {
    const admin = await createTestUser({ role: "admin", email: "root@example.com" });
    const { secret } = await startEnrolment(toSessionUser(admin), { password: admin.password });
    await confirmEnrolment(toSessionUser(admin), totpCodeAt(secret, Date.now()), {
      actor: { id: admin.id, userName: admin.userName },
      ip: null,
    });

    const first = await resetFor(["--email", "Root@Example.com"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("Two-factor sign-in is reset for root@example.com");
    expect(await isTwoFactorEnabled(admin.id)).toBe(false);
    const entries = await getDb().sequelize.query<{ actor_name: string; action: string }>(
      `SELECT actor_name, action FROM audit_log WHERE entity = 'twoFactor' ORDER BY at`,
      { type: QueryTypes.SELECT },
    );
    expect(entries.at(-1)).toEqual({ actor_name: "script", action: "delete" });

    const second = await resetFor(["--email", "root@example.com"]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("has no two-factor sign-in; nothing changed");
  });

  it("exits with 1 for an unknown email or no email", async () => {
    const unknown = await resetFor(["--email", "nobody@example.com"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No account has the email nobody@example.com");
    const missing = await resetFor([]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Usage: npm run reset-two-factor");
  });
});
