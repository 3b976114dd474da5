import type { Knex } from 'knex';
import type { Repositories } from '../../../db/repositories';
import type { Workspace, WorkspaceSettings } from '../../../db/repositories/workspaces';
import type { PipelineWaker } from '../../../temporal/pipeline-waker';
import { badRequest, notFound } from '../../http/http-error';
import type { SettingsChanges } from '../../../contract/workspaces';
import type { Actor } from './actor';

/** Only the settings that change, as they were and as they become. */
function diff(before: WorkspaceSettings, after: WorkspaceSettings, fields: readonly (keyof WorkspaceSettings)[]) {
  const changed = fields.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
  const pick = (settings: WorkspaceSettings) => Object.fromEntries(changed.map((field) => [field, settings[field]]));
  return { changed, before: pick(before), after: pick(after) };
}

/** Saves a workspace's settings and logs what changed, in the caller's transaction. */
export async function saveWorkspaceSettings(repos: Pick<Repositories, 'workspaces' | 'changeLog'>, actor: string, current: Workspace, changes: Partial<WorkspaceSettings>, trx: Knex): Promise<Workspace> {
  const saved = await repos.workspaces.updateSettings(current.id, changes, trx);
  if (saved === undefined) throw notFound(`workspace ${current.id} does not exist`);
  const change = diff(current, saved, Object.keys(changes) as (keyof WorkspaceSettings)[]);
  if (change.changed.length > 0) {
    await repos.changeLog.record({ workspaceId: current.id, actor, action: 'settings.update', target: change.changed.join(','), before: change.before, after: change.after }, trx);
  }
  return saved;
}

/** Changes a workspace's settings and logs the change, in one transaction; refuses test mode without a test code. */
export function createWorkspaceSettingsService(deps: {
  db: Knex;
  repos: Pick<Repositories, 'workspaces' | 'changeLog'>;
  pipelines: Pick<PipelineWaker, 'wakePartitions'>;
  onChange: () => void;
}) {
  return {
    async update(actor: Actor, current: Workspace, changes: SettingsChanges): Promise<Workspace> {
      const testMode = changes.testMode ?? current.testMode;
      const testEventCode = changes.testEventCode === undefined ? current.testEventCode : changes.testEventCode;
      if (testMode && testEventCode === null) {
        const issue = 'testEventCode is required while testMode is true: copy it from TikTok Events Manager > Test events';
        throw badRequest(issue, [issue]);
      }
      const updated = await deps.db.transaction((trx) => saveWorkspaceSettings(deps.repos, actor, current, changes, trx));
      deps.onChange();
      if (updated.pipelinePartitions !== current.pipelinePartitions) {
        // The waiting conversions moved between partitions: the workflows that remain claim theirs, the others end.
        // A wake-up that fails is left to the sweeper.
        const count = Math.max(current.pipelinePartitions, updated.pipelinePartitions);
        await deps.pipelines.wakePartitions(Array.from({ length: count }, (_, partition) => ({ workspaceId: current.id, partition })));
      }
      return updated;
    },
  };
}

export type WorkspaceSettingsService = ReturnType<typeof createWorkspaceSettingsService>;
