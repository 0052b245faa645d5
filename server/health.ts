import type { Request, Response } from "express";
import { getDb } from "../app/models/db.server";
import { OUTAGE_RETRY_AFTER_SECONDS } from "../app/lib/server/errors.server";
import { ROUTE_LOCAL } from "./observability";

/**
 * GET /healthz: 200 `{"status":"ok"}` while PostgreSQL answers, 503 otherwise,
 * for load balancers that ask many times a second. It is answered in Express
 * before the page machinery (no session, no security headers, no router), and
 * the database's answer is shared: checks that arrive while one `SELECT 1` is
 * in flight wait for it, and its result is reused for HEALTH_CHECK_REUSE_MS.
 * So an outage shows within a quarter of a second, and health checks never
 * cost PostgreSQL more than four queries a second.
 */

export const HEALTH_CHECK_REUSE_MS = 250;

const OK_BODY = JSON.stringify({ status: "ok" });
const DOWN_BODY = JSON.stringify({
  status: "unavailable",
  database: "down",
  message: "database unreachable",
});

interface Check {
  healthy: Promise<boolean>;
  finishedAt: number | null;
}

export function healthEndpoint(options: { reuseMs?: number } = {}) {
  const reuseMs = options.reuseMs ?? HEALTH_CHECK_REUSE_MS;
  let last: Check | null = null;

  function databaseHealthy(): Promise<boolean> {
    const fresh = last && (last.finishedAt === null || Date.now() - last.finishedAt < reuseMs);
    if (last && fresh) return last.healthy;
    const check: Check = { healthy: Promise.resolve(false), finishedAt: null };
    check.healthy = getDb()
      .sequelize.query("SELECT 1")
      .then(
        () => true,
        () => false,
      )
      .finally(() => {
        check.finishedAt = Date.now();
      });
    last = check;
    return check.healthy;
  }

  return (_req: Request, res: Response) => {
    res.locals[ROUTE_LOCAL] = "/healthz";
    void databaseHealthy().then((healthy) => {
      res.setHeader("Content-Type", "application/json");
      res.setHeader("Cache-Control", "no-store");
      if (!healthy) {
        res.statusCode = 503;
        res.setHeader("Retry-After", String(OUTAGE_RETRY_AFTER_SECONDS));
      }
      res.end(healthy ? OK_BODY : DOWN_BODY);
    });
  };
}
