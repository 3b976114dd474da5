import type { Knex } from 'knex';
import type { Repositories } from '../../../db/repositories';
import type { ApiKey, ApiKeyKind, CreatedApiKey } from '../../../db/repositories/api-keys';
import type { Actor } from './actor';

/** What the change log keeps of a key: never the key itself. */
const keyRecord = (key: ApiKey) => ({ name: key.name, kind: key.kind, displayPrefix: key.displayPrefix, revokedAt: key.revokedAt });

/** API keys created and revoked with their change-log entry in the same transaction. */
export function createApiKeyService(deps: { db: Knex; repos: Pick<Repositories, 'apiKeys' | 'changeLog'>; onRevoke: () => void }) {
  const { apiKeys, changeLog } = deps.repos;
  return {
    async create(actor: Actor, workspaceId: string, name: string, kind: ApiKeyKind): Promise<CreatedApiKey> {
      return deps.db.transaction(async (trx) => {
        const created = await apiKeys.create(workspaceId, name, kind, trx);
        await changeLog.record({ workspaceId, actor, action: 'key.create', target: created.id, before: null, after: keyRecord(created) }, trx);
        return created;
      });
    },

    /** Undefined when the workspace has no such key; revoking a revoked key changes and logs nothing. */
    async revoke(actor: Actor, workspaceId: string, keyId: string): Promise<ApiKey | undefined> {
      const revoked = await deps.db.transaction(async (trx) => {
        const before = (await apiKeys.list(workspaceId, trx)).find((key) => key.id === keyId);
        if (before === undefined) return undefined;
        const after = await apiKeys.revoke(workspaceId, keyId, trx);
        if (after !== undefined && before.revokedAt === null) {
          await changeLog.record({ workspaceId, actor, action: 'key.revoke', target: keyId, before: keyRecord(before), after: keyRecord(after) }, trx);
        }
        return after;
      });
      if (revoked !== undefined) deps.onRevoke();
      return revoked;
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
