import type { Knex } from 'knex';
import type { Repositories } from '../../../db/repositories';
import type { NewWebhookSource, WebhookSource } from '../../../db/repositories/webhook-sources';
import type { WebhookMapping } from '../../../domain/webhooks/mapping';
import type { Actor } from './actor';

/** What the change log keeps of a source: never its secret. */
const sourceRecord = (source: WebhookSource) => ({ name: source.name, type: source.type, signatureHeader: source.signatureHeader, mapping: source.mapping });

export type CreatedSource = WebhookSource & { signingSecret: string };

/** Webhook sources created, changed, given a new secret and deleted, each with its change-log entry in the same transaction. */
export function createWebhookSourceService(deps: { db: Knex; repos: Pick<Repositories, 'webhookSources' | 'changeLog'> }) {
  const { webhookSources, changeLog } = deps.repos;
  return {
    async create(actor: Actor, workspaceId: string, input: NewWebhookSource): Promise<CreatedSource> {
      return deps.db.transaction(async (trx) => {
        const created = await webhookSources.create(workspaceId, input, trx);
        await changeLog.record({ workspaceId, actor, action: 'source.create', target: created.id, before: null, after: sourceRecord(created) }, trx);
        return created;
      });
    },

    /** Undefined when the workspace has no such source. */
    async setSecret(actor: Actor, workspaceId: string, sourceId: string, given: string | undefined): Promise<CreatedSource | undefined> {
      return deps.db.transaction(async (trx) => {
        const changed = await webhookSources.setSecret(workspaceId, sourceId, given, trx);
        if (changed !== undefined) await changeLog.record({ workspaceId, actor, action: 'source.secret', target: sourceId, before: null, after: { name: changed.name, secret: given === undefined ? 'made by Signalbox' : 'given' } }, trx);
        return changed;
      });
    },

    async update(actor: Actor, workspaceId: string, sourceId: string, changes: { name?: string; signatureHeader?: string; mapping?: WebhookMapping }): Promise<WebhookSource | undefined> {
      return deps.db.transaction(async (trx) => {
        const before = await webhookSources.find(workspaceId, sourceId, trx);
        if (before === undefined) return undefined;
        const after = (await webhookSources.update(workspaceId, sourceId, changes, trx)) as WebhookSource;
        if (JSON.stringify(sourceRecord(before)) !== JSON.stringify(sourceRecord(after))) {
          await changeLog.record({ workspaceId, actor, action: 'source.update', target: sourceId, before: sourceRecord(before), after: sourceRecord(after) }, trx);
        }
        return after;
      });
    },

    async remove(actor: Actor, workspaceId: string, sourceId: string): Promise<WebhookSource | undefined> {
      return deps.db.transaction(async (trx) => {
        const removed = await webhookSources.remove(workspaceId, sourceId, trx);
        if (removed !== undefined) await changeLog.record({ workspaceId, actor, action: 'source.delete', target: sourceId, before: sourceRecord(removed), after: null }, trx);
        return removed;
      });
    },
  };
}

export type WebhookSourceService = ReturnType<typeof createWebhookSourceService>;
