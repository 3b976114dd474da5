import { createHmac } from 'node:crypto';
import type { Knex } from 'knex';
import type { Repositories } from '../../db/repositories';
import type { ErasedCounts } from '../../db/repositories/erasures';
import { removeSourceData, type RemovedSourceData } from '../../db/repositories/source-data-removal';
import type { IdentityKind, IdentityNode } from '../../domain/observation';

export interface ErasureResult {
  id: string;
  requestedAt: Date;
  /** How many identifiers of each kind the identity walk found for the person (the request's own included). */
  identifiers: Record<IdentityKind, number>;
  /** True when the walk stopped at its node limit: run another request with the identifiers it could not reach. */
  truncated: boolean;
  erased: ErasedCounts;
}

/**
 * Erases a person (GDPR art. 17, CCPA): everything linked to the identifiers named, in one transaction, with a log
 * entry that holds only keyed digests of the identifiers and a change-log entry.
 */
export interface ErasureServiceDeps {
  db: Knex;
  repos: Repositories;
  secretKey: string;
  /** Called after each erasure: whatever this process remembers about identities must go too. */
  onErased?: () => void;
}

export function createErasureService({ db, repos, secretKey, onErased }: ErasureServiceDeps) {
  const key = Buffer.from(secretKey, 'hex');
  // Keyed, so the log cannot be searched by hashing guessed emails; whoever holds SECRET_KEY can confirm a given person was erased.
  const digest = (node: IdentityNode) => createHmac('sha256', key).update(`erasure\0${node.kind}\0${node.value}`).digest('hex');

  return {
    /** `within`: a transaction of the caller's, to erase only if the rest of it commits (a savepoint in it). */
    async erase(workspaceId: string, named: readonly IdentityNode[], actor: string, within: Knex = db): Promise<ErasureResult> {
      const result = await within.transaction(async (trx) => {
        const graph = await repos.erasures.personGraph(workspaceId, named, trx);
        const erased = await repos.erasures.erase(workspaceId, graph.nodes, trx);
        const identifiers = { user_id: 0, anonymous_id: 0, email_sha256: 0, phone_sha256: 0 };
        for (const node of graph.nodes) identifiers[node.kind] += 1;
        const record = await repos.erasures.record(
          { workspace_id: workspaceId, actor, identifiers: named.map((node) => ({ kind: node.kind, digest: digest(node) })), erased: { ...erased } },
          trx,
        );
        await repos.changeLog.record({ workspaceId, actor, action: 'erasure.run', target: record.id, after: { identifiers, truncated: graph.truncated, erased: { ...erased } } }, trx);
        return { id: record.id, requestedAt: record.requested_at, identifiers, truncated: graph.truncated, erased };
      });
      onErased?.();
      return result;
    },

    /** Removes what a webhook source stored (db/repositories/source-data-removal.ts): Shopify's shop/redact. */
    async removeSourceData(workspaceId: string, sourceId: string, within: Knex = db): Promise<RemovedSourceData> {
      const removed = await within.transaction((trx) => removeSourceData(trx, workspaceId, sourceId));
      onErased?.();
      return removed;
    },
  };
}

export type ErasureService = ReturnType<typeof createErasureService>;
