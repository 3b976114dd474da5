import type { FastifyPluginAsync } from 'fastify';
import { isSupportedCountry } from 'libphonenumber-js';
import { z } from 'zod';
import type { WorkspaceRepository } from '../../../db/repositories/workspaces';
import { badRequest, notFound } from '../../http-error';
import { parseOrReject } from '../../validation';
import { jsonBody, webOrigin } from './fields';
import { workspaceOf } from './workspace-scope';

const windowMessage = 'must be a whole number of days from 1 to 90';
const MAX_ALLOWED_ORIGINS = 100;
const retentionMessage = 'must be a whole number of days from 1 to 3650';

const settingsBody = jsonBody({
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
  eventRetentionDays: z.number({ error: retentionMessage }).int(retentionMessage).min(1, retentionMessage).max(3650, retentionMessage).optional(),
}).refine(
  (changes) => Object.keys(changes).length > 0,
  'must set at least one of attributionWindowDays, testMode, testEventCode, defaultPhoneRegion, allowedOrigins, eventRetentionDays',
);

function notFoundAfterDelete(workspaceId: string): never {
  throw notFound(`workspace ${workspaceId} does not exist`);
}

/**
 * `/admin/workspaces/:workspaceId` and its settings (attribution window, test mode, default phone region, the
 * origins browser keys are accepted from, and how long raw events are kept).
 */
export const workspaceSettingsRoutes: FastifyPluginAsync<{ workspaces: WorkspaceRepository; onChange: () => void }> = async (app, { workspaces, onChange }) => {
  app.get('/', async (request) => workspaceOf(request));

  app.patch('/settings', async (request) => {
    const current = workspaceOf(request);
    const changes = parseOrReject(settingsBody, request.body, 'body');
    const testMode = changes.testMode ?? current.testMode;
    const testEventCode = changes.testEventCode === undefined ? current.testEventCode : changes.testEventCode;
    if (testMode && testEventCode === null) {
      const issue = 'testEventCode is required while testMode is true: copy it from TikTok Events Manager > Test events';
      throw badRequest(issue, [issue]);
    }
    const updated = await workspaces.updateSettings(current.id, changes);
    onChange();
    return updated ?? notFoundAfterDelete(current.id);
  });
};
