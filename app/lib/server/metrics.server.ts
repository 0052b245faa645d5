import client from "prom-client";
import { processSingleton } from "./process-singleton.server";

/**
 * The shop's Prometheus metrics (prom-client), served at /metrics when
 * METRICS_TOKEN is set (server/observability.ts). One registry per process
 * (a process singleton: the HTTP server and the framework's server build are
 * separate module graphs). Labels are small closed sets: route patterns, never raw URLs.
 */

const CHECKOUT_OUTCOMES = ["created", "captured", "declined", "refunded", "reconciled"] as const;
type CheckoutOutcome = (typeof CHECKOUT_OUTCOMES)[number];

interface ShopMetrics {
  registry: client.Registry;
  httpRequests: client.Counter<"method" | "route" | "status">;
  httpDuration: client.Histogram<"method" | "route" | "status">;
  checkoutOutcomes: client.Counter<"outcome">;
  loginFailures: client.Counter;
  rateLimitRefusals: client.Counter<"limit">;
}

/** How the database connection pool is used right now. */
export interface PoolStats {
  size: number;
  using: number;
  waiting: number;
  max: number;
}

export interface RenderedMetrics {
  contentType: string;
  body: string;
}

// Handed in once, when app/models/db.server.ts loads: kept for the process, tests included.
const poolStatsSource = () =>
  processSingleton<{ read?: () => PoolStats | null }>("metrics-pool-stats", () => ({}), {
    keepAcrossTests: true,
  });
const renderer = () =>
  processSingleton<{ render?: () => Promise<RenderedMetrics> }>("metrics-renderer", () => ({}));

/**
 * The pool's owner (app/models/db.server.ts) hands its reader in, so that
 * this ground-floor module imports no database; until then the gauges read 0.
 */
export function reportPoolStatsWith(source: () => PoolStats | null): void {
  poolStatsSource().read = source;
}

function createMetrics(): ShopMetrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: "shop_" });
  const poolGauge = (name: string, help: string, pick: (stats: PoolStats) => number) =>
    new client.Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const stats = poolStatsSource().read?.() ?? null;
        this.set(stats ? pick(stats) : 0);
      },
    });
  poolGauge("shop_db_pool_size", "Open connections in the database pool", (s) => s.size);
  poolGauge("shop_db_pool_in_use", "Pool connections lent out to queries", (s) => s.using);
  poolGauge("shop_db_pool_waiting", "Queries waiting for a free pool connection", (s) => s.waiting);
  poolGauge("shop_db_pool_max", "Largest size the database pool may grow to", (s) => s.max);

  const checkoutOutcomes = new client.Counter({
    name: "shop_checkout_outcomes_total",
    help: "Checkout steps by outcome: created, captured, declined, refunded, reconciled",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  // Every outcome is a series from the start, so that rate() and alerts see a zero, not nothing.
  for (const outcome of CHECKOUT_OUTCOMES) checkoutOutcomes.inc({ outcome }, 0);

  return {
    registry,
    httpRequests: new client.Counter({
      name: "shop_http_requests_total",
      help: "HTTP requests by method, route pattern and status",
      labelNames: ["method", "route", "status"] as const,
      registers: [registry],
    }),
    httpDuration: new client.Histogram({
      name: "shop_http_request_duration_seconds",
      help: "HTTP request latency by method, route pattern and status",
      labelNames: ["method", "route", "status"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    checkoutOutcomes,
    loginFailures: new client.Counter({
      name: "shop_login_failures_total",
      help: "Sign-in attempts refused for a wrong email or password",
      registers: [registry],
    }),
    rateLimitRefusals: new client.Counter({
      name: "shop_rate_limit_refusals_total",
      help: "Requests refused by a rate limit (429)",
      labelNames: ["limit"] as const,
      registers: [registry],
    }),
  };
}

function metrics(): ShopMetrics {
  return processSingleton("metrics", createMetrics);
}

/** Counts one checkout outcome, e.g. `recordCheckoutOutcome("captured")`. */
export function recordCheckoutOutcome(outcome: CheckoutOutcome): void {
  metrics().checkoutOutcomes.inc({ outcome });
}

/**
 * Counts a refused capture by its reason: a decline is an outcome; other
 * refusals (not approved yet, out of stock before any charge) are not, and a
 * refund is counted where the money goes back (checkout/refund.server.ts), once.
 */
export function recordCheckoutRefusal(reason: string): void {
  if (reason === "declined") recordCheckoutOutcome("declined");
}

export function recordLoginFailureMetric(): void {
  metrics().loginFailures.inc();
}

export function recordRateLimitRefusal(limit: string): void {
  metrics().rateLimitRefusals.inc({ limit });
}

/** One finished HTTP request; `route` is a pattern such as /shop/product/:id. */
export function observeHttpRequest(input: {
  method: string;
  route: string;
  status: number;
  seconds: number;
}): void {
  const labels = { method: input.method, route: input.route, status: String(input.status) };
  const { httpRequests, httpDuration } = metrics();
  httpRequests.inc(labels);
  httpDuration.observe(labels, input.seconds);
}

/** This process's registry (server/cluster-metrics.ts sums the workers' and the primary's). */
export function metricsRegistry(): client.Registry {
  return metrics().registry;
}

/**
 * A cluster worker hands in how the whole server's metrics are rendered
 * (server/cluster-metrics.ts), so that a scrape answered by any worker
 * counts every process; a single process renders its own.
 */
export function renderMetricsWith(render: () => Promise<RenderedMetrics>): void {
  renderer().render = render;
}

/** The Prometheus text exposition of the server: this process, or every process of a cluster. */
export async function renderMetrics(): Promise<RenderedMetrics> {
  const render = renderer().render;
  if (render) return render();
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
