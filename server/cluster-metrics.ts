import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry, type Registry } from "prom-client";
import { getLogger } from "../app/lib/server/logger.server";
import { metricsRegistry, renderMetricsWith, type RenderedMetrics } from "../app/lib/server/metrics.server";

/**
 * /metrics for a cluster (server/cluster.ts). Each process counts in its own
 * registry, and the connection of a scrape lands on whichever worker is next,
 * so the worker that answers asks the primary, which gathers every worker's
 * metrics and its own (the reconciler counts there) and sums them with
 * prom-client's AggregatorRegistry: counters and histograms add up, the pool
 * gauges give the server's totals. A worker that does not answer within
 * COLLECT_TIMEOUT_MS (crashed, busy starting) is left out of that scrape.
 */

type MetricsJson = Awaited<ReturnType<Registry["getMetricsAsJSON"]>>;

type ToWorker =
  | { type: "metrics:collect"; id: number }
  | { type: "metrics:rendered"; id: number; metrics: RenderedMetrics | null };
type ToPrimary =
  { type: "metrics:request"; id: number } | { type: "metrics:json"; id: number; json: MetricsJson };

const COLLECT_TIMEOUT_MS = 2_000;

function isMessage(message: unknown): message is { type: string; id: number } {
  return (
    typeof message === "object" && message !== null && typeof (message as { id?: unknown }).id === "number"
  );
}

/** In the primary: answers the workers' scrapes with the sum over every process. */
export function serveClusterMetrics(): () => void {
  let nextId = 1;
  const waiting = new Map<number, (json: MetricsJson) => void>();

  async function collect(): Promise<RenderedMetrics> {
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker =>
      Boolean(worker?.isConnected()),
    );
    const answers = workers.map(
      (worker) =>
        new Promise<MetricsJson | null>((resolve) => {
          const id = nextId++;
          const timer = setTimeout(() => {
            waiting.delete(id);
            resolve(null);
          }, COLLECT_TIMEOUT_MS);
          waiting.set(id, (json) => {
            clearTimeout(timer);
            waiting.delete(id);
            resolve(json);
          });
          worker.send({ type: "metrics:collect", id } satisfies ToWorker);
        }),
    );
    const own = await metricsRegistry().getMetricsAsJSON();
    const everyone = [
      own,
      ...(await Promise.all(answers)).filter((json): json is MetricsJson => json !== null),
    ];
    const sum = AggregatorRegistry.aggregate(everyone);
    return { contentType: sum.contentType, body: await sum.metrics() };
  }

  const onMessage = (worker: Worker, message: unknown) => {
    if (!isMessage(message)) return;
    const received = message as ToPrimary;
    if (received.type === "metrics:json") waiting.get(received.id)?.(received.json);
    if (received.type === "metrics:request") {
      collect().then(
        (metrics) => worker.send({ type: "metrics:rendered", id: received.id, metrics } satisfies ToWorker),
        () => worker.send({ type: "metrics:rendered", id: received.id, metrics: null } satisfies ToWorker),
      );
    }
  };
  cluster.on("message", onMessage);
  return () => cluster.off("message", onMessage);
}

/** In a worker: sends its registry when the primary collects, and renders /metrics through the primary. */
export function joinClusterMetrics(): void {
  let nextId = 1;
  const waiting = new Map<number, (metrics: RenderedMetrics | null) => void>();
  process.on("message", (message: unknown) => {
    if (!isMessage(message)) return;
    const received = message as ToWorker;
    if (received.type === "metrics:collect") {
      void metricsRegistry()
        .getMetricsAsJSON()
        .then((json) => {
          if (process.connected) {
            process.send!({ type: "metrics:json", id: received.id, json } satisfies ToPrimary);
          }
        })
        // A metric that fails to collect leaves this worker out of one scrape; it never ends the worker.
        .catch((error: unknown) =>
          getLogger().warn({ err: error }, "The worker's metrics could not be collected"),
        );
    }
    if (received.type === "metrics:rendered") waiting.get(received.id)?.(received.metrics);
  });
  renderMetricsWith(
    () =>
      new Promise<RenderedMetrics>((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error("The primary did not gather the cluster's metrics in time"));
        }, COLLECT_TIMEOUT_MS * 2);
        waiting.set(id, (metrics) => {
          clearTimeout(timer);
          waiting.delete(id);
          if (metrics) resolve(metrics);
          else reject(new Error("The primary could not gather the cluster's metrics"));
        });
        if (!process.connected) {
          clearTimeout(timer);
          waiting.delete(id);
          reject(new Error("The primary is gone: no cluster metrics"));
          return;
        }
        process.send!({ type: "metrics:request", id } satisfies ToPrimary);
      }),
  );
}
