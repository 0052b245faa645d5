import { getDb } from "~/lib/db.server";

/** 200 only when PostgreSQL answers: load balancers take the instance out otherwise. */
export async function loader() {
  try {
    await getDb().sequelize.query("SELECT 1");
    return new Response(JSON.stringify({ status: "ok" }), {
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
    });
  } catch {
    return new Response(JSON.stringify({ status: "unavailable", message: "database unreachable" }), {
      status: 503,
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
    });
  }
}
