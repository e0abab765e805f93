import http from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** One registry per process: request counts and latency per route, queue depth, delivery outcomes. */
export const metricsRegistry = new Registry();

let processMetrics = false;
/**
 * The process metrics (CPU, memory, event-loop lag, GC), from when a metrics listener starts: they
 * install process-wide observers that are never removed, so merely loading this module (as every
 * e2e test file does, each with its own copy of the modules) installs nothing.
 */
function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: metricsRegistry, prefix: 'gatehouse_' });
}

export const httpRequests = new Counter({
  name: 'gatehouse_http_requests_total',
  help: 'HTTP requests by app, method, route and status',
  labelNames: ['app', 'method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpDuration = new Histogram({
  name: 'gatehouse_http_request_duration_seconds',
  help: 'HTTP request latency by app, method and route',
  labelNames: ['app', 'method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const webhookDeliveries = new Counter({
  name: 'gatehouse_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome (succeeded, failed, retrying, gone, refused)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

type DepthReader = () => Promise<{ queue: string; state: string; count: number }[]>;
const depthReaders: DepthReader[] = [];

export const queueDepth = new Gauge({
  name: 'gatehouse_queue_jobs',
  help: 'Jobs per queue and state (waiting, active, delayed, failed)',
  labelNames: ['queue', 'state'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const read of depthReaders) {
      try {
        for (const r of await read()) this.set({ queue: r.queue, state: r.state }, r.count);
      } catch {
        /* a scrape while Redis is down reports no depth rather than failing */
      }
    }
  },
});

/** The worker registers how to read its queues' depth (BullMQ job counts). */
export function registerQueueDepth(reader: DepthReader): void {
  depthReaders.push(reader);
}

type RequestSeries = {
  duration: ReturnType<typeof httpDuration.labels>;
  count: ReturnType<typeof httpRequests.labels>;
};
/** Label children by their values: prom-client would otherwise hash a label object on every call. */
const requestSeries = new Map<string, RequestSeries>();

/** Records one finished request by route pattern (never the raw path with ids). */
export function recordHttpRequest(
  app: string,
  method: string,
  route: string,
  status: number,
  seconds: number,
): void {
  const key = `${app} ${method} ${status} ${route}`;
  let series = requestSeries.get(key);
  if (!series) {
    series = {
      duration: httpDuration.labels(app, method, route),
      count: httpRequests.labels(app, method, route, String(status)),
    };
    requestSeries.set(key, series);
  }
  series.duration.observe(seconds);
  series.count.inc();
}

/** Serves `GET /metrics` on its own listener (METRICS_HOST, loopback by default), apart from the API. */
export async function startMetricsServer(host: string, port: number): Promise<http.Server> {
  collectProcessMetrics();
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    metricsRegistry
      .metrics()
      .then((body) => res.writeHead(200, { 'Content-Type': metricsRegistry.contentType }).end(body))
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
