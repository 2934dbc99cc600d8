import {
  SECRET_CONFIG_KEYS,
  connectionFields,
  connectionIds,
  type Connection,
  type ConnectionId,
} from '@crewline/contracts';
import type { Config } from '../../platform/env';
import { BadRequestError, NotFoundError } from '../../platform/errors';
import { maskFields, sealFields, unsealFields, type SecretBox } from '../../platform/crypto';
import { LLM_PROVIDERS, resolveConnection, type LlmConnection, type LlmProvider } from '../../platform/llm';
import type { RequestActor } from '../../platform/request-actor';
import type { ConnectionRow, ConnectionsRepository } from './connections.repository';

const secretKeys = [...SECRET_CONFIG_KEYS];
const providerConfigIds: Record<LlmProvider, ConnectionId> = {
  openai: 'openai_config',
  anthropic: 'anthropic_config',
  local: 'local_config',
  custom: 'custom_config',
};

export function createConnectionsService(deps: {
  config: Config;
  repository: ConnectionsRepository;
  box: SecretBox;
}) {
  const { config, repository, box } = deps;

  const toDto = (id: ConnectionId, row: ConnectionRow | undefined): Connection => ({
    id,
    config: row ? maskFields(row.config, secretKeys, box, row.organizationId) : {},
    isActive: row?.isActive ?? false,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  });

  // Decrypted configuration is for the server's own use only (never answered).
  const unsealed = (row: ConnectionRow | undefined) =>
    row?.isActive ? unsealFields(row.config, secretKeys, box, row.organizationId) : undefined;

  async function activeSecrets(
    organizationId: string,
    id: ConnectionId,
  ): Promise<Record<string, unknown> | undefined> {
    return unsealed(await repository.get(organizationId, id));
  }

  /** Organization first, then the server's env keys (resolveConnection says where to configure). */
  const connectionFrom = (provider: LlmProvider, own: Record<string, unknown> | undefined) =>
    resolveConnection(provider, {
      organization: own && {
        apiKey: own.apiKey as string | undefined,
        baseUrl: own.baseUrl as string | undefined,
      },
      env: config.providerKeys,
    });

  /** The connection of each provider from the organization's configurations, read once. */
  function connectionsFrom(rows: ConnectionRow[]) {
    const byId = new Map(rows.map((row) => [row.configId, row]));
    return (provider: LlmProvider): LlmConnection =>
      connectionFrom(provider, unsealed(byId.get(providerConfigIds[provider])));
  }

  return {
    async list(organizationId: string): Promise<Connection[]> {
      const rows = new Map((await repository.list(organizationId)).map((r) => [r.configId, r]));
      return connectionIds.map((id) => toDto(id, rows.get(id)));
    },

    async update(
      organizationId: string,
      rawId: string,
      body: { config?: Record<string, unknown>; isActive?: boolean },
      actor: RequestActor,
    ): Promise<Connection> {
      const id = connectionIds.find((known) => known === rawId);
      if (!id) throw new NotFoundError('Unknown tool configuration');
      const previous = await repository.get(organizationId, id);
      // Nothing to change (`{}`, or only unknown fields): the saved connection as it is, updatedAt included.
      if (previous && body.config === undefined && body.isActive === undefined) return toDto(id, previous);
      let stored = previous?.config ?? {};
      if (body.config) {
        const parsed = connectionFields[id].safeParse(body.config);
        if (!parsed.success) {
          const errors = parsed.error.issues.map((i) => ({
            path: ['config', ...i.path].join('.'),
            message: i.message,
          }));
          throw new BadRequestError(errors[0].message, errors);
        }
        stored = sealFields(
          parsed.data as Record<string, unknown>,
          secretKeys,
          previous?.config,
          box,
          organizationId,
        );
      }
      // A connection saved for the first time is switched on; afterwards only the toggle changes it.
      const isActive = body.isActive ?? previous?.isActive ?? true;
      // The audit log names the fields that changed, never their values (a secret is stored sealed:
      // one typed again counts as changed).
      const before = previous?.config ?? {};
      const fields = [...new Set([...Object.keys(before), ...Object.keys(stored)])]
        .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(stored[field]))
        .sort();
      const details: Record<string, unknown> = { fields };
      if (previous?.isActive !== isActive) details.isActive = isActive;
      const row = await repository.upsert(
        organizationId,
        id,
        { config: stored, isActive },
        { actor, action: previous ? 'connection.updated' : 'connection.created', details },
      );
      return toDto(id, row);
    },

    /** Where and how an agent of this organization reaches its provider. */
    async connectionFor(organizationId: string, provider: LlmProvider): Promise<LlmConnection> {
      return connectionFrom(provider, await activeSecrets(organizationId, providerConfigIds[provider]));
    },

    /**
     * `connectionFor` over configurations already read (`configurationsJson`): the provider's
     * connection, or the same error when it has none.
     */
    connectionsFrom,

    /**
     * Every provider's connection (undefined where none is usable), the default model its active
     * connection names, and a cache key that changes whenever the organization's connections change —
     * from one read of its configurations.
     */
    async providerConnections(organizationId: string) {
      const rows = await repository.list(organizationId);
      const connectionOf = connectionsFrom(rows);
      const byId = new Map(rows.map((row) => [row.configId, row]));
      const connections: Partial<Record<LlmProvider, LlmConnection>> = {};
      const defaults: Partial<Record<LlmProvider, string>> = {};
      for (const provider of LLM_PROVIDERS) {
        const row = byId.get(providerConfigIds[provider]);
        const defaultModel = row?.isActive ? row.config.defaultModel : undefined;
        if (typeof defaultModel === 'string' && defaultModel.trim()) defaults[provider] = defaultModel.trim();
        try {
          connections[provider] = connectionOf(provider);
        } catch {
          // Not configured: the catalogue falls back to the built-in model list.
        }
      }
      const version = [
        organizationId,
        ...rows.map((r) => `${r.configId}:${r.isActive}:${r.updatedAt.getTime()}`).sort(),
      ];
      return { connections, defaults, version: version.join('|') };
    },

    activeSecrets,

    /** Ids of the organization's active connections (the system status names their providers). */
    activeIds: (organizationId: string) => repository.activeIds(organizationId),
  };
}
export type ConnectionsService = ReturnType<typeof createConnectionsService>;
