import type { Knex } from 'knex';
import type { Repositories } from '../../../db/repositories';
import type { PipelineWaker } from '../../../temporal/pipeline-waker';
import { createApiKeyService, type ApiKeyService } from './api-keys';
import { createConversionRuleService, type ConversionRuleService } from './conversion-rules';
import { createWebhookSourceService, type WebhookSourceService } from './webhook-sources';
import { createWorkspaceSettingsService, type WorkspaceSettingsService } from './workspace-settings';

export type { Actor } from './actor';
export { userActor } from './actor';

/** The settings writes the `/admin` API and the console share; each records its change-log entry in its transaction. */
export interface SettingsServices {
  workspaceSettings: WorkspaceSettingsService;
  conversionRules: ConversionRuleService;
  apiKeys: ApiKeyService;
  webhookSources: WebhookSourceService;
}

/**
 * `onCredentialsChange` clears ingest's key cache (which holds the browser config's pixel setup too) whenever a key, a
 * workspace's settings or a conversion rule change; `pipelines` wakes a workspace's group workflows when its partition
 * count changes.
 */
export function createSettingsServices(deps: { db: Knex; repos: Repositories; pipelines: Pick<PipelineWaker, 'wakePartitions'>; onCredentialsChange: () => void }): SettingsServices {
  return {
    workspaceSettings: createWorkspaceSettingsService({ db: deps.db, repos: deps.repos, pipelines: deps.pipelines, onChange: deps.onCredentialsChange }),
    conversionRules: createConversionRuleService({ db: deps.db, repos: deps.repos, onChange: deps.onCredentialsChange }),
    apiKeys: createApiKeyService({ db: deps.db, repos: deps.repos, onRevoke: deps.onCredentialsChange }),
    webhookSources: createWebhookSourceService({ db: deps.db, repos: deps.repos }),
  };
}
