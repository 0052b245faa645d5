import { parseArgs } from "node:util";
import { registerSchema, type RegisterInput } from "../app/lib/shared/schemas";
import { createOrPromoteAdmin } from "../app/services/users.server";
import { SCRIPT_CHANGE } from "../app/services/audit.server";
import { exitWithUsageError, withDatabase } from "./with-database";

const USAGE = "Usage: npm run create-admin -- --email E --password P --name N";

/** Checks the arguments before touching the database: a typo answers at once. */
function readArguments(): RegisterInput {
  let values;
  try {
    ({ values } = parseArgs({
      options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
    }));
  } catch (error) {
    return exitWithUsageError(`${(error as Error).message}\n${USAGE}`);
  }
  const parsed = registerSchema.safeParse({
    userName: values.name,
    email: values.email,
    password: values.password,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  - ${issue.path.join(".")}: ${issue.message}`);
    return exitWithUsageError(`${problems.join("\n")}\n${USAGE}`);
  }
  return parsed.data;
}

const input = readArguments();
await withDatabase(async () => {
  const { user, action } = await createOrPromoteAdmin(input, SCRIPT_CHANGE);
  const said = {
    created: `Created admin ${user.email}.`,
    promoted: `Promoted existing user ${user.email} to admin (password unchanged).`,
    unchanged: `${user.email} is already an admin; nothing changed.`,
  };
  console.log(said[action]);
});
