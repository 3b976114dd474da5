import { z } from 'zod';
import { instant } from './views';

/* The TikTok connection's answers, the settings API's and the console's. Imports nothing but zod and views.ts, for the console's build. */

/** The connection as stored; never the token. */
export const tiktokConnectionSummaryView = z.strictObject({
  workspaceId: z.string(),
  advertiserId: z.string().nullable(),
  advertiserName: z.string().nullable().meta({ description: 'As TikTok listed it when the token was granted; null when unknown (a manual token)' }),
  pixelCode: z.string().nullable(),
  pixelName: z.string().nullable().meta({ description: 'As TikTok listed it when it was chosen; null when unknown (a manual token)' }),
  appId: z.string().nullable().meta({ description: 'The TikTok App ID mobile-app events are sent under' }),
  offlineEventSetId: z.string().nullable().meta({ description: 'The Offline Event Set that sales in stores and on the phone are sent to' }),
  offlineEventSetName: z.string().nullable().meta({ description: 'As TikTok listed it when it was chosen; null when chosen by ID alone' }),
  crmEventSetId: z.string().nullable().meta({ description: 'The CRM Event Set that events from a CRM are sent to' }),
  crmEventSetName: z.string().nullable().meta({ description: 'As TikTok listed it when it was chosen; null when chosen by ID alone' }),
  source: z.enum(['manual', 'oauth']),
  status: z.enum(['active', 'reauthorization_required']),
  grantedScopes: z.array(z.string()).nullable().meta({ description: 'Permission IDs TikTok reported for an OAuth token; null for a manual token' }),
  accessibleAdvertisers: z.array(z.strictObject({ advertiserId: z.string(), advertiserName: z.string() })).nullable().meta({ description: 'As listed when the OAuth token was granted; null for a manual token' }),
  authorizedAt: instant.nullable(),
  statsPulledAt: instant.nullable(),
  statsPullError: z.string().nullable().meta({ description: 'Why the last statistics pull failed; null after a successful one' }),
  advertiserCurrency: z.string().nullable(),
  advertiserTimeZone: z.string().nullable(),
  advertiserInfoAt: instant.nullable().meta({ description: 'When the advertiser\'s currency and time zone were last read' }),
  updatedAt: instant,
});
export type TikTokConnectionSummaryView = z.infer<typeof tiktokConnectionSummaryView>;

export const tiktokNextStep = z.enum(['select_advertiser', 'select_pixel', 'reauthorize']).nullable().meta({ description: 'The owner\'s next step; null when the connection is complete' });
export type TikTokNextStep = z.infer<typeof tiktokNextStep>;

/** The connection with what it lacks: the answer of every step that changes it. */
export const tiktokConnectionView = z
  .strictObject({
    ...tiktokConnectionSummaryView.shape,
    missingPermissions: z.array(z.string()).meta({ description: 'Required permissions TikTok did not grant (empty for a manual token, whose permissions are unknown)' }),
    nextStep: tiktokNextStep,
  })
  .meta({ id: 'TikTokConnection' });
export type TikTokConnectionView = z.infer<typeof tiktokConnectionView>;

/** The Temporal schedule that pulls the ad statistics. */
export const tiktokScheduleView = z.strictObject({ scheduleId: z.string(), paused: z.boolean(), note: z.string().nullable(), nextRunAt: instant.nullable(), lastRunAt: instant.nullable() });
export type TikTokScheduleView = z.infer<typeof tiktokScheduleView>;

/** `GET …/tiktok`: the connection and its statistics schedule (null when the workspace has none). */
export const tiktokConnectionStatusView = z.strictObject({ ...tiktokConnectionView.shape, schedule: tiktokScheduleView.nullable() });
export type TikTokConnectionStatusView = z.infer<typeof tiktokConnectionStatusView>;

export const authorizationUrlView = z.strictObject({
  url: z.string(),
  state: z.string().meta({ description: 'Signed; the callback must bring it back' }),
  expiresAt: instant,
});
export type AuthorizationUrlView = z.infer<typeof authorizationUrlView>;

export const advertiserChoiceView = z.strictObject({ advertiserId: z.string(), advertiserName: z.string().meta({ description: 'Empty when TikTok did not list it' }) });
export type AdvertiserChoiceView = z.infer<typeof advertiserChoiceView>;

export const advertiserChoicesView = z.strictObject({ advertisers: z.array(advertiserChoiceView), selectedAdvertiserId: z.string().nullable() });
export type AdvertiserChoicesView = z.infer<typeof advertiserChoicesView>;

export const pixelChoiceView = z.strictObject({ pixelId: z.string(), pixelCode: z.string(), pixelName: z.string() });
export type PixelChoiceView = z.infer<typeof pixelChoiceView>;

export const pixelChoicesView = z.strictObject({ pixels: z.array(pixelChoiceView), selectedPixelCode: z.string().nullable() });
export type PixelChoicesView = z.infer<typeof pixelChoicesView>;

export const eventSetChoiceView = z.strictObject({ eventSetId: z.string(), eventSetName: z.string() });
export type EventSetChoiceView = z.infer<typeof eventSetChoiceView>;

export const eventSetChoicesView = z.strictObject({ eventSets: z.array(eventSetChoiceView), selectedEventSetId: z.string().nullable() });
export type EventSetChoicesView = z.infer<typeof eventSetChoicesView>;

/** The console's Sources page: the connection (null when there is none) and each required permission, granted or not. */
export const consoleTikTokView = z.strictObject({
  connection: tiktokConnectionStatusView.nullable(),
  permissions: z.array(z.strictObject({ key: z.string(), description: z.string(), granted: z.boolean().nullable().meta({ description: 'null when unknown (a manual token)' }) })),
});
export type ConsoleTikTokView = z.infer<typeof consoleTikTokView>;

/** TikTok's verdict on a test conversion, as it came. */
export const testConversionView = z.strictObject({
  accepted: z.boolean().meta({ description: 'TikTok accepted it: it should show in Events Manager\'s Test Events view' }),
  code: z.number().int().nullable(),
  message: z.string(),
  requestId: z.string().nullable(),
  testEventCode: z.string(),
  pixelCode: z.string(),
  eventId: z.string(),
});
export type TestConversionView = z.infer<typeof testConversionView>;

export const adUrlParametersView = z.strictObject({
  urlParameters: z.string().meta({ description: 'To append to every ad\'s landing page URL' }),
  macros: z.record(z.string(), z.string()).meta({ description: 'Each TikTok macro and what TikTok puts in its place' }),
  exampleLandingUrl: z.string(),
  instructions: z.string(),
});
export type AdUrlParametersView = z.infer<typeof adUrlParametersView>;

/** `POST …/ads/pull` (console): the statistics pull, started in the background. */
export const consoleStatsPullView = z.strictObject({ triggered: z.literal(true), message: z.string() });
export type ConsoleStatsPullView = z.infer<typeof consoleStatsPullView>;

/** `POST …/tiktok/stats/pull` (settings API): the same, naming the Temporal schedule that runs it. */
export const statsPullView = z.strictObject({ ...consoleStatsPullView.shape, scheduleId: z.string() });
export type StatsPullView = z.infer<typeof statsPullView>;

/** `DELETE …/tiktok` (settings API and console): the connection and its statistics schedule, gone. */
export const disconnectedView = z.strictObject({ deleted: z.literal(true) });
export type DisconnectedView = z.infer<typeof disconnectedView>;
