import type { Knex } from 'knex';
import { isSupportedCountry } from 'libphonenumber-js';
import { z } from 'zod';
import type { Repositories } from '../../../db/repositories';
import type { Workspace, WorkspaceSettings } from '../../../db/repositories/workspaces';
import { MAX_PIPELINE_PARTITIONS } from '../../../domain/workflow-id';
import type { PipelineWaker } from '../../../temporal/pipeline-waker';
import { badRequest, notFound } from '../../http/http-error';
import { currencyCode, jsonBody, webOrigin } from '../../http/fields';
import type { Actor } from './actor';

const windowMessage = 'must be a whole number of days from 1 to 90';
const MAX_ALLOWED_ORIGINS = 100;
const MAX_EXCHANGE_RATES = 200;
const retentionMessage = 'must be a whole number of days from 1 to 3650';
const partitionsMessage = `must be a whole number of workflows from 1 to ${MAX_PIPELINE_PARTITIONS}`;
const RATE_RULE = 'must be a positive decimal: what one unit of that currency is worth in the TikTok advertiser\'s currency, e.g. "1.08"';

/** A rate as exact decimal text; a JSON number is taken at its shortest decimal form. */
const exchangeRate = z
  .union([z.string(), z.number()], { error: RATE_RULE })
  .transform((value) => String(value).trim())
  .refine((text) => /^\d{1,12}(\.\d{1,12})?$/.test(text) && /[1-9]/.test(text), RATE_RULE);

/** The body of a settings change (settings API and console alike); every field optional, at least one given. */
export const settingsChangesBody = jsonBody({
  attributionWindowDays: z.number({ error: windowMessage }).int(windowMessage).min(1, windowMessage).max(90, windowMessage).optional(),
  testMode: z.boolean({ error: 'must be true or false' }).optional(),
  testEventCode: z
    .string({ error: 'must be a string, or null to clear it' })
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, "_" or "-", as shown in TikTok Events Manager (e.g. TEST12345)')
    .nullable()
    .optional(),
  defaultPhoneRegion: z
    .string({ error: 'must be a two-letter country code' })
    .trim()
    .toUpperCase()
    .refine(isSupportedCountry, 'must be an ISO 3166 alpha-2 country code with a phone numbering plan, e.g. US or GB')
    .optional(),
  allowedOrigins: z
    .array(webOrigin, { error: 'must be a list of origins such as ["https://shop.example"], or [] for none' })
    .max(MAX_ALLOWED_ORIGINS, `must hold at most ${MAX_ALLOWED_ORIGINS} origins`)
    .transform((origins) => [...new Set(origins)])
    .optional(),
  consentRequired: z.boolean({ error: 'must be true or false' }).optional(),
  exchangeRates: z
    .record(currencyCode, exchangeRate, {
      error: (issue) =>
        issue.code === 'invalid_key'
          ? 'must be named by ISO 4217 currency codes such as USD or EUR'
          : 'must be an object of currency codes to rates, e.g. {"EUR": "1.08"}, or {} to clear them',
    })
    .refine((rates) => Object.keys(rates).length <= MAX_EXCHANGE_RATES, `must hold at most ${MAX_EXCHANGE_RATES} currencies`)
    .optional(),
  eventRetentionDays: z.number({ error: retentionMessage }).int(retentionMessage).min(1, retentionMessage).max(3650, retentionMessage).optional(),
  matchWithoutClick: z.boolean({ error: 'must be true or false' }).optional(),
  pipelinePartitions: z.number({ error: partitionsMessage }).int(partitionsMessage).min(1, partitionsMessage).max(MAX_PIPELINE_PARTITIONS, partitionsMessage).optional(),
}).refine(
  (changes) => Object.keys(changes).length > 0,
  'must set at least one of attributionWindowDays, testMode, testEventCode, defaultPhoneRegion, allowedOrigins, consentRequired, exchangeRates, eventRetentionDays, matchWithoutClick, pipelinePartitions',
);

export type SettingsChanges = z.infer<typeof settingsChangesBody>;

/** Only the settings that change, as they were and as they become. */
function diff(before: WorkspaceSettings, after: WorkspaceSettings, fields: readonly (keyof WorkspaceSettings)[]) {
  const changed = fields.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
  const pick = (settings: WorkspaceSettings) => Object.fromEntries(changed.map((field) => [field, settings[field]]));
  return { changed, before: pick(before), after: pick(after) };
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
      const updated = await deps.db.transaction(async (trx) => {
        const saved = await deps.repos.workspaces.updateSettings(current.id, changes, trx);
        if (saved === undefined) throw notFound(`workspace ${current.id} does not exist`);
        const change = diff(current, saved, Object.keys(changes) as (keyof WorkspaceSettings)[]);
        if (change.changed.length > 0) {
          await deps.repos.changeLog.record({ workspaceId: current.id, actor, action: 'settings.update', target: change.changed.join(','), before: change.before, after: change.after }, trx);
        }
        return saved;
      });
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
