import type { Db } from '@crewline/db';
import type { MetricsSettings } from './metrics-routes';
import { enableMetrics, type MetricsRegistry, type MetricsSources } from './registry';

export { metricsRoutes, startMetricsServer } from './metrics-routes';

/**
 * The process's metrics when it is configured to be scraped (a metrics port, or a token for the main
 * port), reading this process's pool (`db`) and the queue (`queueDepth`, modules/executions); else
 * undefined, and the recording functions stay no-ops (prom-client is not loaded).
 */
export async function processMetrics(
  settings: MetricsSettings,
  db: Db,
  queueDepth: MetricsSources['queueDepth'],
): Promise<MetricsRegistry | undefined> {
  if (settings.port === undefined && settings.token === undefined) return undefined;
  return enableMetrics({ queueDepth, pool: db.$client });
}
