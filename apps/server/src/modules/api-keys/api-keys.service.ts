import { createHash, randomBytes } from 'node:crypto';
import {
  API_KEY_PREFIX,
  apiKeyMessages,
  type ApiKey,
  type CreatedApiKey,
  type CreateApiKeyInput,
} from '@crewline/contracts';
import { BadRequestError, NotFoundError, TooManyRequestsError } from '../../platform/errors';
import { requireUuid } from '../../platform/ids';
import type { AuthContext } from '../../platform/auth/auth-context';
import type { RequestActor, UserActor } from '../../platform/request-actor';
import { API_KEY_WINDOW_SECONDS, type ApiKeysRepository } from './api-keys.repository';

/** How many characters of a key stay visible in the list (the prefix and 8 more). */
const SHOWN_LENGTH = API_KEY_PREFIX.length + 8;

const hashApiKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** Whether a bearer token is meant as an API key (session tokens are JWTs, which never start so). */
/**
 * Organization API keys (docs/security.md, API keys). A key is 32 random bytes after `crw_`; only its
 * sha256 is stored, so it is shown once. A call with a key acts as the key's creator with member
 * powers (never admin or owner), while the creator is a member and the plan includes API access.
 */
export function createApiKeysService(deps: {
  repository: ApiKeysRepository;
  billing: { checkApiAccess(organizationId: string): Promise<void> };
  maxPerMinute: number;
  now?: () => Date;
}) {
  const { repository } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    list: (organizationId: string): Promise<ApiKey[]> => repository.list(organizationId),

    async create(organizationId: string, actor: UserActor, input: CreateApiKeyInput): Promise<CreatedApiKey> {
      const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
      if (expiresAt && expiresAt.getTime() <= now().getTime()) {
        throw new BadRequestError(apiKeyMessages.expiryInPast, [
          { path: 'expiresAt', message: apiKeyMessages.expiryInPast },
        ]);
      }
      await deps.billing.checkApiAccess(organizationId);
      const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      const created = await repository.create({
        organizationId,
        name: input.name.trim(),
        prefix: key.slice(0, SHOWN_LENGTH),
        keyHash: hashApiKey(key),
        createdBy: actor.userId,
        expiresAt,
        actor,
      });
      return { ...created, key };
    },

    async revoke(organizationId: string, id: string, actor: RequestActor): Promise<void> {
      const found = await repository.revoke(organizationId, requireUuid(id, apiKeyMessages.notFound), actor);
      if (!found) throw new NotFoundError(apiKeyMessages.notFound);
    },

    /**
     * The auth context of a call made with `key`, or null when the key is unknown, revoked, expired or
     * its creator left. Past the per-minute limit → 429 with the seconds until the window ends; a
     * plan without API access → 402.
     */
    async authenticate(key: string): Promise<AuthContext | null> {
      const used = await repository.use(hashApiKey(key));
      if (!used) return null;
      if (used.windowCount > deps.maxPerMinute) {
        const ends = used.windowStart.getTime() + API_KEY_WINDOW_SECONDS * 1000;
        throw new TooManyRequestsError(
          apiKeyMessages.tooMany,
          Math.max(1, Math.ceil((ends - Date.now()) / 1000)),
        );
      }
      await deps.billing.checkApiAccess(used.organizationId);
      return {
        sessionId: `api-key:${used.id}`,
        userId: used.userId,
        organizationId: used.organizationId,
        role: 'member',
        apiKeyId: used.id,
        apiKeyName: used.name,
      };
    },
  };
}
export type ApiKeysService = ReturnType<typeof createApiKeysService>;
