import { z } from 'zod';
import { CONVERSION_SOURCE_NAMES, CONVERSION_SOURCES, RULE_DESTINATION_NAMES, type ConversionSource } from './source-names';

/* Answer shapes the console and the CLI read too: this file imports nothing but zod and source-names.ts, so the browser's build can take it. */

/** An instant as the API writes it: ISO-8601 in UTC. */
export const instant = z.iso.datetime();

/** What the tracking tag does with TikTok's pixel: leaves it alone, loads it, or uses the one already on the page. */
export const browserPixelMode = z.enum(['off', 'load', 'page']);
export type BrowserPixelModeView = z.infer<typeof browserPixelMode>;

export const workspaceView = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    attributionWindowDays: z.number().int(),
    testMode: z.boolean(),
    testEventCode: z.string().nullable(),
    defaultPhoneRegion: z.string(),
    allowedOrigins: z.array(z.string()),
    consentRequired: z.boolean(),
    exchangeRates: z.record(z.string(), z.string()),
    eventRetentionDays: z.number().int(),
    conversionRetentionDays: z.number().int(),
    matchWithoutClick: z.boolean(),
    pipelinePartitions: z.number().int(),
    browserPixel: browserPixelMode,
    limitedDataUse: z.boolean(),
    createdAt: instant,
  })
  .meta({ id: 'Workspace' });
export type WorkspaceView = z.infer<typeof workspaceView>;

export const workspacesView = z.strictObject({ workspaces: z.array(workspaceView) });
export type WorkspacesView = z.infer<typeof workspacesView>;

/** A workspace made or renamed in the console. */
export const workspaceChangedView = z.strictObject({ workspace: workspaceView });
export type WorkspaceChangedView = z.infer<typeof workspaceChangedView>;

export const apiKeyKind = z.enum(['secret', 'browser', 'app']);

export const apiKeyView = z
  .strictObject({
    id: z.string(),
    workspaceId: z.string(),
    name: z.string(),
    kind: apiKeyKind,
    displayPrefix: z.string().meta({ description: 'The key\'s first characters, to recognise it' }),
    createdAt: instant,
    revokedAt: instant.nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyView = z.infer<typeof apiKeyView>;

/** Every key, revoked ones too (without the keys themselves). */
export const apiKeysView = z.strictObject({ apiKeys: z.array(apiKeyView) });
export type ApiKeysView = z.infer<typeof apiKeysView>;

/** A key the console just made: the full key, shown once. */
export const consoleCreatedKeyView = z.strictObject({ ...apiKeyView.shape, key: z.string() });
export type ConsoleCreatedKeyView = z.infer<typeof consoleCreatedKeyView>;

/** A key as created: the only answer that holds the key itself. */
export const createdApiKeyView = z.strictObject({ ...apiKeyView.shape, key: z.string().meta({ description: 'The full key: shown once, never stored' }), notice: z.string() });
export type CreatedApiKeyView = z.infer<typeof createdApiKeyView>;

export const ruleValueView = z.union([
  z.strictObject({ source: z.literal('order_total'), currency: z.string().optional() }),
  z.strictObject({ source: z.literal('fixed'), amount: z.number(), currency: z.string().optional() }),
  z.strictObject({ source: z.literal('none') }),
]);

export type RuleValueView = z.infer<typeof ruleValueView>;

/** Where a rule sends its conversions: `auto` (app events to the app, events that happened offline to the Offline Event Set, else the pixel), or one TikTok event source. */
export const ruleDestination = z.enum(['auto', 'web', 'app', 'offline', 'crm']);
export type RuleDestination = z.infer<typeof ruleDestination>;

/** A conversion rule in the shape the API accepts, so that one read back can be sent again unchanged. */
export const ruleView = z
  .strictObject({
    event: z.string(),
    tiktokEvent: z.string(),
    alsoSendAs: z.array(z.string()),
    value: ruleValueView,
    serverOnly: z.boolean().meta({ description: "Sent to TikTok by the server only: the tracking tag does not report these events to TikTok's browser pixel" }),
    destination: ruleDestination.meta({ description: 'Where its conversions go: auto (app events to the app, events that happened offline to the Offline Event Set, else the pixel), web, app, offline or crm' }),
  })
  .meta({ id: 'ConversionRule' });
export type RuleView = z.infer<typeof ruleView>;

export const rulesView = z.strictObject({ rules: z.array(ruleView) });
export type RulesView = z.infer<typeof rulesView>;

/** `DELETE …/rules/:event` (settings API and console). */
export const deletedRuleView = z.strictObject({ event: z.string(), deleted: z.literal(true) });
export type DeletedRuleView = z.infer<typeof deletedRuleView>;

/** Something about a delivered conversion worth fixing at its source, e.g. a value that could not be read. */
export const conversionWarning = z.strictObject({
  code: z.string().meta({ description: 'e.g. value_unreadable' }),
  field: z.string().optional().meta({ description: 'The message field concerned, e.g. properties.total' }),
  found: z.string().optional().meta({ description: 'What was found there, as JSON text, shortened' }),
  message: z.string().meta({ description: 'One sentence for a person' }),
});

export const conversionStatus = z.enum(['pending', 'delivered', 'skipped', 'failed']);
export type ConversionStatus = z.infer<typeof conversionStatus>;

/** Where a conversion happened, and so the TikTok event source it goes to (the Events API's `event_source`). */
export const conversionSource = z.enum(CONVERSION_SOURCES);
export { CONVERSION_SOURCE_NAMES, RULE_DESTINATION_NAMES, type ConversionSource };

/** One line of a conversions list. */
export const conversionSummaryView = z
  .strictObject({
    id: z.string(),
    status: conversionStatus,
    reason: z.string().nullable().meta({ description: 'Why it was skipped or failed, as a stable code' }),
    sourceEvent: z.string(),
    tiktokEvent: z.string(),
    eventSource: conversionSource.meta({ description: 'Where it happened, and the TikTok event source it is sent to: web (the pixel), app, offline (the Offline Event Set) or crm (the CRM Event Set)' }),
    eventId: z.string(),
    messageEvent: z.strictObject({ position: z.number().int(), of: z.number().int() }).meta({ description: 'Which of the TikTok events sent for its message this is' }),
    eventTime: instant,
    value: z.number().nullable(),
    currency: z.string().nullable(),
    testMode: z.boolean(),
    sentWithoutClick: z.boolean(),
    tiktokRequestId: z.string().nullable(),
    warnings: z.array(conversionWarning),
    createdAt: instant,
    completedAt: instant.nullable(),
  })
  .meta({ id: 'ConversionSummary' });
export type ConversionSummaryView = z.infer<typeof conversionSummaryView>;

/** `GET /admin/workspaces/:workspaceId/conversions`: a page, newest first. */
export const conversionPageView = z.strictObject({ conversions: z.array(conversionSummaryView), nextCursor: z.string().nullable() });
export type ConversionPageView = z.infer<typeof conversionPageView>;

/** A generic webhook's mapping as stored: a path into the body, or a fixed text in double quotes, per field. */
export const webhookMappingView = z
  .strictObject({
    event: z.string(),
    messageId: z.string().optional(),
    userId: z.string().optional(),
    anonymousId: z.string().optional(),
    email: z.string().optional(),
    phone: z.string().optional(),
    value: z.string().optional(),
    valueInCents: z.boolean().optional().meta({ description: 'The value is in the currency\'s minor unit (cents): it is divided by 100' }),
    currency: z.string().optional(),
    orderId: z.string().optional(),
    products: z.string().optional(),
    timestamp: z.string().optional(),
  })
  .meta({ id: 'WebhookMapping' });
export type WebhookMappingView = z.infer<typeof webhookMappingView>;

export const webhookSourceView = z
  .strictObject({
    id: z.string(),
    workspaceId: z.string(),
    type: z.enum(['shopify', 'webhook']),
    name: z.string(),
    signatureHeader: z.string(),
    mapping: webhookMappingView.nullable().meta({ description: 'null for a Shopify source' }),
    createdAt: instant,
    secretSetAt: instant,
    secretMade: z
      .boolean()
      .meta({ description: "Signalbox made the signing secret (none was given); false when it was given (a Shopify source: Shopify's key), and for sources made before this field" }),
    lastDeliveryAt: instant.nullable(),
    lastRefusal: z.strictObject({ at: instant, status: z.number().int(), message: z.string() }).nullable(),
    webhookUrl: z.string().meta({ description: 'Where the platform posts: PUBLIC_URL/v1/webhooks/<id>' }),
    neededRule: z
      .strictObject({ event: z.string(), tiktokEvent: z.string() })
      .nullable()
      .meta({ description: "The conversion rule this source's purchases need (Order Completed for a Shopify shop); null when its mapping reads the event name from each delivery" }),
  })
  .meta({ id: 'WebhookSource' });
export type WebhookSourceView = z.infer<typeof webhookSourceView>;

export const webhookSourcesView = z.strictObject({ sources: z.array(webhookSourceView) });
export type WebhookSourcesView = z.infer<typeof webhookSourcesView>;

/** A source as an answer that set its secret gives it: the secret when Signalbox made it, and what to do next. */
export const webhookSourceWithSecretView = z.strictObject({
  ...webhookSourceView.shape,
  signingSecret: z.string().optional().meta({ description: "Only when Signalbox made a generic webhook source's secret: shown this once (a Shopify source signs with Shopify's key)" }),
  notice: z.string(),
});
export type WebhookSourceWithSecretView = z.infer<typeof webhookSourceWithSecretView>;

/** `POST …/sources/preview`: what a pasted sample body becomes under a mapping, or every problem. */
export const mappingPreviewView = z.union([
  z.strictObject({
    ok: z.literal(true),
    message: z.record(z.string(), z.unknown()),
    unmatched: z
      .array(z.strictObject({ field: z.string().meta({ description: 'The mapping field, e.g. email' }), path: z.string() }))
      .meta({ description: 'Fields whose path finds nothing in the sample, so they are left out of the message (a typo, or a field this sample lacks)' }),
  }),
  z.strictObject({ ok: z.literal(false), problems: z.array(z.string()) }),
]);
export type MappingPreviewView = z.infer<typeof mappingPreviewView>;

/** `DELETE …/sources/:sourceId` (settings API and console). */
export const deletedSourceView = z.strictObject({ deleted: z.literal(true), id: z.string() });
export type DeletedSourceView = z.infer<typeof deletedSourceView>;

/** What an identifier is: email and phone only as their SHA-256, as TikTok takes them. */
export const identityKindView = z.enum(['anonymous_id', 'user_id', 'email_sha256', 'phone_sha256']);

/** How two linked identifiers join. */
export const identityLinkView = z.enum(['same_anonymous_id', 'same_user', 'same_email', 'same_phone']);

export const roleView = z.enum(['owner', 'editor', 'viewer']);
export type Role = z.infer<typeof roleView>;

/** The console's signed-in person, with the session's CSRF token and the workspaces they may open. */
export const sessionView = z
  .strictObject({
    user: z.strictObject({ id: z.string(), email: z.string(), name: z.string(), createdAt: instant }),
    csrfToken: z.string().meta({ description: 'Send it as X-CSRF-Token on every write' }),
    sessionId: z.string(),
    workspaces: z.array(z.strictObject({ workspaceId: z.string(), workspaceName: z.string(), role: roleView })),
  })
  .meta({ id: 'ConsoleSession' });
export type SessionView = z.infer<typeof sessionView>;

/** Every console page's banner and menu: the workspace, the person's role in it, the TikTok connection in brief. */
export const consoleWorkspaceView = z.strictObject({
  workspace: workspaceView,
  role: roleView,
  tiktok: z
    .strictObject({
      status: z.string(),
      advertiserId: z.string().nullable(),
      advertiserName: z.string().nullable(),
      pixelCode: z.string().nullable(),
      pixelName: z.string().nullable(),
      timeZone: z.string().nullable(),
      currency: z.string().nullable(),
    })
    .nullable(),
});
export type ConsoleWorkspaceView = z.infer<typeof consoleWorkspaceView>;

/** A line of the console's Conversions table: the summary, TikTok's code and the click's visitor. */
/** The order's number as the shop shows it (a Shopify order's name, e.g. #9074), when its event gave one. */
export const orderName = z.string().nullable().meta({ description: "The order's number as the shop shows it (a Shopify order's name, e.g. #9074), when its event gave one" });

export const consoleConversionRow = z.strictObject({ ...conversionSummaryView.shape, tiktokCode: z.number().int().nullable(), clickAnonymousId: z.string().nullable(), orderName });
export type ConsoleConversionRow = z.infer<typeof consoleConversionRow>;

export const consoleConversionPage = z.strictObject({ conversions: z.array(consoleConversionRow), nextCursor: z.string().nullable() }).meta({ id: 'ConsoleConversionPage' });
export type ConsoleConversionPageView = z.infer<typeof consoleConversionPage>;

const count = z.number().int();

/** One TikTok event's diagnostics for a period (the console's and the settings API's). */
export const eventDiagnosticsView = z.strictObject({
  tiktokEvent: z.string(),
  received: count.meta({ description: 'Conversions made for this TikTok event, whatever became of them' }),
  delivered: count,
  deliveredInTestMode: count,
  pending: count,
  skipped: count,
  failed: count,
  refused: count.meta({ description: 'Of those failed, refused by TikTok' }),
  built: count.meta({ description: 'Conversions whose request was built: what the missing parameters are counted of' }),
  missing: z.strictObject({ value: count, currency: count, contents: count }).nullable().meta({ description: 'null for events without recommended parameters' }),
  missingAny: count,
  repeated: count.meta({ description: 'Conversions whose order ID or event ID came again in later events' }),
  repeats: count,
  deliveredWithoutClick: count,
  withoutClickShare: z.number().nullable().meta({ description: 'deliveredWithoutClick / delivered, to 4 decimals; null when nothing was delivered' }),
  topRefusals: z.array(
    z.strictObject({
      tiktokCode: z.number().int().nullable(),
      conversions: count,
      words: z.string(),
      example: z.strictObject({ conversionId: z.string(), eventId: z.string(), message: z.string().nullable() }),
    }),
  ),
});
export type EventDiagnosticsView = z.infer<typeof eventDiagnosticsView>;

/** What became of a period's conversions of one source. */
export const sourceDiagnosticsView = z.strictObject({ source: conversionSource, received: count, delivered: count, pending: count, skipped: count, failed: count });
export type SourceDiagnosticsView = z.infer<typeof sourceDiagnosticsView>;

const diagnosticsShape = {
  source: conversionSource.nullable().meta({ description: 'The source the figures are of; null: all of them' }),
  events: z.array(eventDiagnosticsView),
  sources: z.array(sourceDiagnosticsView).meta({ description: 'The sources the period\'s conversions came from (of the chosen one only, when one is), the busiest first' }),
};

/** `GET /admin/workspaces/:id/diagnostics`. */
export const diagnosticsView = z.strictObject({ workspaceId: z.string(), days: count, from: z.string(), to: z.string(), ...diagnosticsShape });
export type DiagnosticsView = z.infer<typeof diagnosticsView>;

/** The console's diagnostics: whole days in the viewer's time zone. */
export const consoleDiagnosticsView = z.strictObject({ from: z.string(), to: z.string(), timeZone: z.string(), ...diagnosticsShape });
export type ConsoleDiagnosticsView = z.infer<typeof consoleDiagnosticsView>;

/** A reason or a state explained for a person: what it is called, what happened, what to do. */
export const helpView = z.strictObject({ label: z.string(), explanation: z.string(), fix: z.string() });
export type HelpView = z.infer<typeof helpView>;

/** `GET …/reasons`: every reason a conversion can carry, explained. */
export const reasonsView = z.strictObject({ reasons: z.array(z.strictObject({ reason: z.string(), ...helpView.shape })) });
export type ReasonsView = z.infer<typeof reasonsView>;
