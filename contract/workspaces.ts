import { isSupportedCountry } from 'libphonenumber-js';
import { z } from 'zod';
import { MAX_PIPELINE_PARTITIONS } from '../domain/workflow-id';
import { currencyCode, jsonBody, requiredText, webOrigin } from './fields';
import { browserPixelMode } from './views';

/** `:workspaceId` of the settings API's and the console's workspace routes. */
export const workspaceParams = z.object({ workspaceId: z.string().min(1).max(100, 'must be at most 100 characters') });

/** A workspace route's parameters: `:workspaceId` and the route's own. */
export const inWorkspace = <Shape extends z.core.$ZodLooseShape>(params?: z.ZodObject<Shape>) => z.object({ ...workspaceParams.shape, ...params?.shape });

export const createWorkspaceBody = jsonBody({ name: requiredText(200) });

const windowMessage = 'must be a whole number of days from 1 to 90';
const MAX_ALLOWED_ORIGINS = 100;
const MAX_EXCHANGE_RATES = 200;
const retentionMessage = 'must be a whole number of days from 1 to 3650';
const conversionRetentionMessage = 'must be a whole number of days from 28 (TikTok\'s attribution window) to 3650';
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
  conversionRetentionDays: z
    .number({ error: conversionRetentionMessage })
    .int(conversionRetentionMessage)
    .min(28, conversionRetentionMessage)
    .max(3650, conversionRetentionMessage)
    .optional(),
  matchWithoutClick: z.boolean({ error: 'must be true or false' }).optional(),
  pipelinePartitions: z.number({ error: partitionsMessage }).int(partitionsMessage).min(1, partitionsMessage).max(MAX_PIPELINE_PARTITIONS, partitionsMessage).optional(),
  browserPixel: z
    .enum(browserPixelMode.options, {
      error: 'must be "off" (the tag leaves TikTok\'s pixel alone), "load" (the tag loads the pixel) or "page" (the tag uses the pixel already on the page)',
    })
    .optional(),
  limitedDataUse: z.boolean({ error: 'must be true or false' }).optional(),
}).refine(
  (changes) => Object.keys(changes).length > 0,
  'must set at least one of attributionWindowDays, testMode, testEventCode, defaultPhoneRegion, allowedOrigins, consentRequired, exchangeRates, eventRetentionDays, conversionRetentionDays, matchWithoutClick, pipelinePartitions, browserPixel, limitedDataUse',
);

export type SettingsChanges = z.infer<typeof settingsChangesBody>;
export type SettingsChangesBody = z.input<typeof settingsChangesBody>;
