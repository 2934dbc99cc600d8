import type { SystemStatus } from '@crewline/contracts';
import type { Config } from '../../platform/env';
import type { RequestMetrics } from '../../platform/request-metrics';
import type { ConnectionsService } from '../connections/connections.service';
import type { SystemRepository } from './system.repository';

export const HEARTBEAT_INTERVAL_MS = 10_000;
const WORKER_ALIVE_SECONDS = 45;

const llmConfigurationProviders: Record<string, string> = {
  openai_config: 'openai',
  anthropic_config: 'anthropic',
};

export function createSystemService(deps: {
  config: Config;
  repository: SystemRepository;
  metrics: RequestMetrics;
  /** The organization's active connections (modules/connections). */
  connections: Pick<ConnectionsService, 'activeIds'>;
}) {
  const { config, repository, metrics } = deps;
  return {
    async health(): Promise<boolean> {
      try {
        await repository.ping();
        return true;
      } catch {
        return false;
      }
    },

    async status(organizationId: string): Promise<SystemStatus> {
      let latencyMs = -1;
      try {
        latencyMs = await repository.ping();
      } catch {
        // reported as down below
      }
      const databaseUp = latencyMs >= 0;
      const workers = databaseUp ? await repository.liveWorkerCount(WORKER_ALIVE_SECONDS) : 0;
      const fromOrganization = databaseUp ? await deps.connections.activeIds(organizationId) : [];
      const configured = new Set(fromOrganization.map((id) => llmConfigurationProviders[id]).filter(Boolean));
      if (config.providerKeys.openai) configured.add('openai');
      if (config.providerKeys.anthropic) configured.add('anthropic');
      return {
        api: { status: databaseUp ? 'operational' : 'degraded' },
        database: { status: databaseUp ? 'operational' : 'down', latencyMs: Math.max(latencyMs, 0) },
        workflowEngine: {
          status: workers > 0 ? 'operational' : 'down',
          detail:
            workers > 0 ? `${workers} worker${workers === 1 ? '' : 's'} running` : 'No worker is running',
        },
        llmProviders: {
          status: configured.size > 0 ? 'active' : 'not_configured',
          configured: [...configured].sort(),
        },
        responseTimeMs: metrics.meanMs(),
      };
    },

    beat: (workerId: string, role: string) => repository.beat(workerId, role),
    forget: (workerId: string) => repository.forget(workerId),
  };
}
export type SystemService = ReturnType<typeof createSystemService>;
