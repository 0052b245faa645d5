import { parseArgs } from "node:util";
import { registerSchema } from "../app/lib/schemas";
import { createOrPromoteAdmin } from "../app/services/users.server";
import { UsageError, withDatabase } from "./with-database";

const USAGE = "Usage: npm run create-admin -- --email E --password P --name N";

await withDatabase(async () => {
  let values;
  try {
    ({ values } = parseArgs({
      options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  const parsed = registerSchema.safeParse({
    userName: values.name,
    email: values.email,
    password: values.password,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  - ${issue.path.join(".")}: ${issue.message}`);
    throw new UsageError(`${problems.join("\n")}\n${USAGE}`);
  }
  const { user, action } = await createOrPromoteAdmin(parsed.data);
  const said = {
    created: `Created admin ${user.email}.`,
    promoted: `Promoted existing user ${user.email} to admin (password unchanged).`,
    unchanged: `${user.email} is already an admin; nothing changed.`,
  };
  console.log(said[action]);
});
