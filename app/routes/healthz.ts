import { getDb } from "~/models/db.server";
import { OUTAGE_RETRY_AFTER_SECONDS } from "~/lib/errors.server";

/** 200 only when PostgreSQL answers: load balancers take the instance out otherwise. */
export async function loader() {
  try {
    await getDb().sequelize.query("SELECT 1");
    return new Response(JSON.stringify({ status: "ok" }), {
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
    });
  } catch {
    return new Response(
      JSON.stringify({ status: "unavailable", database: "down", message: "database unreachable" }),
      {
        status: 503,
        headers: {
          "Content-Type": "application/json",
          "Cache-Control": "no-store",
          "Retry-After": String(OUTAGE_RETRY_AFTER_SECONDS),
        },
      },
    );
  }
}
