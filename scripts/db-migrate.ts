import { withDatabase } from "./with-database";

await withDatabase(async () => {
  console.log("The database schema is up to date.");
});
