/** Response shapes of the settings API as the CLI reads them (timestamps arrive as ISO strings). */

export interface WorkspaceView {
  id: string;
  name: string;
  attributionWindowDays: number;
  testMode: boolean;
  testEventCode: string | null;
  defaultPhoneRegion: string;
  allowedOrigins: string[];
  eventRetentionDays: number;
  consentRequired: boolean;
  /** One unit of each currency in the TikTok advertiser's currency. */
  exchangeRates: Record<string, string>;
  /** Conversions without a click inside the window are sent too, for TikTok to match on other keys. */
  /** Group workflows the conversions are split among. */
  matchWithoutClick: boolean;
  pipelinePartitions: number;
  createdAt: string;
}

export interface ApiKeyView {
  id: string;
  name: string;
  kind: 'secret' | 'browser';
  displayPrefix: string;
  createdAt: string;
  revokedAt: string | null;
  key?: string;
  notice?: string;
}

export interface SourceView {
  id: string;
  type: 'shopify' | 'webhook';
  name: string;
  webhookUrl: string;
  signatureHeader: string;
  mapping: Record<string, unknown> | null;
  lastDeliveryAt: string | null;
  lastRefusal: { at: string; status: number; message: string } | null;
  /** Only in the answers that set it. */
  signingSecret?: string;
  notice?: string;
}

export type RuleValueView = { source: 'order_total'; currency?: string } | { source: 'fixed'; amount: number; currency?: string } | { source: 'none' };

export interface RuleView {
  event: string;
  tiktokEvent: string;
  alsoSendAs: string[];
  value: RuleValueView;
}

export interface RuleSuggestionView {
  event: string;
  count: number;
  lastSeenAt: string;
  tiktokEvent: string;
  mapping: 'standard' | 'segment' | 'tiktok' | 'custom';
  value: RuleValueView;
}

export interface RuleSuggestionsView {
  since: string;
  suggestions: RuleSuggestionView[];
}

export interface TikTokScheduleView {
  scheduleId: string;
  paused: boolean;
  note: string | null;
  nextRunAt: string | null;
  lastRunAt: string | null;
}

export type TikTokNextStep = 'select_advertiser' | 'select_pixel' | 'reauthorize' | null;

export interface TikTokConnectionView {
  workspaceId: string;
  advertiserId: string | null;
  pixelCode: string | null;
  appId: string | null;
  source: string;
  status: string;
  grantedScopes: string[] | null;
  authorizedAt: string | null;
  statsPulledAt: string | null;
  statsPullError: string | null;
  advertiserCurrency: string | null;
  advertiserTimeZone: string | null;
  updatedAt: string;
  /** Absent from the answer of `PUT …/tiktok/app`. */
  missingPermissions?: string[];
  nextStep?: TikTokNextStep;
  /** Only in `GET …/tiktok` (status); null when the workspace has no statistics schedule. */
  schedule?: TikTokScheduleView | null;
}

export interface AuthorizationUrlView {
  url: string;
  state: string;
  expiresAt: string;
}

export interface AdvertiserChoiceView {
  advertiserId: string;
  advertiserName: string;
}

export interface PixelChoiceView {
  pixelId: string;
  pixelCode: string;
  pixelName: string;
}

export interface TestConversionView {
  accepted: boolean;
  code: number | null;
  message: string;
  requestId: string | null;
  testEventCode: string;
  pixelCode: string;
  eventId: string;
}

export interface AdFiguresView {
  spend: string | null;
  impressions: number | null;
  clicks: number | null;
  cpc: string | null;
  ctr: string | null;
  cpm: string | null;
  conversions: number | null;
  costPerConversion: string | null;
  conversionRate: string | null;
  conversionValue: string | null;
  roas: string | null;
  deliveredConversions: number;
  deliveredValues: Record<string, string>;
  deliveredValue: string | null;
}

export interface AdReportRowView extends AdFiguresView {
  level: string;
  date: string | null;
  entityId: string;
  name: string | null;
  status: string | null;
  statusLabel: string | null;
  campaignId: string | null;
  adgroupId: string | null;
}

export interface AdReportView {
  advertiserId: string;
  level: 'campaign' | 'adgroup' | 'ad';
  from: string;
  to: string;
  granularity: 'day' | 'total';
  currency: string | null;
  timeZone: string;
  notes: string[];
  rows: AdReportRowView[];
  totals: AdFiguresView & { rows: number };
  statsPulledAt: string | null;
  statsPullError: string | null;
}

export interface AdUrlParametersView {
  urlParameters: string;
  macros: Record<string, string>;
  exampleLandingUrl: string;
  instructions: string;
}

export interface ConversionSummaryView {
  id: string;
  status: string;
  reason: string | null;
  sourceEvent: string;
  tiktokEvent: string;
  eventId: string;
  /** Which of the TikTok events sent for its message it is (`of` > 1 when its rule also sends it as other events). */
  messageEvent: { position: number; of: number };
  value: number | null;
  currency: string | null;
  testMode: boolean;
  /** Delivered with no click inside the attribution window, for TikTok to match on its other keys. */
  sentWithoutClick: boolean;
  tiktokRequestId: string | null;
  warnings: ConversionWarningView[];
  createdAt: string;
}

export interface ConversionWarningView {
  code: string;
  field?: string;
  found?: string;
  message: string;
}

export interface EventView {
  id: string;
  messageId: string;
  type: string;
  eventName: string | null;
  userId: string | null;
  anonymousId: string | null;
  occurredAt: string;
  receivedAt: string;
  duplicateOfConversionId: string | null;
}

export interface ConversionDetailView extends ConversionSummaryView {
  eventTime: string;
  eventSource: string;
  messageId: string;
  workflowId: string;
  workflowRunId: string | null;
  workflowUrl: string | null;
  attempts: number;
  click: { ttclid: string | null; capturedAt: string | null; anonymousId: string | null };
  ttp: string | null;
  matchKeys?: Record<string, { source: string; anonymousId?: string }> | null;
  requestPayload: unknown;
  deliveryRequest: { id: string; events: number; position: number; sentAt: string; answeredAt: string | null; outcome: string | null } | null;
  tiktokResponse: { code: number | null; message: string | null; requestId: string | null; body: unknown };
  timeline: { at: string; step: string; detail: Record<string, unknown> }[];
  repeatedBy: { id: string; messageId: string; event: string | null; receivedAt: string }[];
  /** Every TikTok event sent for the same message, this one included, in its rule's order. */
  messageEvents: { id: string; tiktokEvent: string; eventId: string; status: string }[];
  completedAt: string | null;
}

export interface ConversionRetryView {
  requeued: number;
  conversionIds: string[];
}

export interface MatchKeyCoverageView {
  workspaceId: string;
  days: number;
  since: string;
  delivered: number;
  keys: { key: string; conversions: number; share: number | null; sources: { message: number; visitor: number; identity: number } }[];
}

export interface DiagnosticsView {
  workspaceId: string;
  days: number;
  from: string;
  to: string;
  events: {
    tiktokEvent: string;
    received: number;
    delivered: number;
    deliveredInTestMode: number;
    pending: number;
    skipped: number;
    failed: number;
    refused: number;
    built: number;
    missing: { value: number; currency: number; contents: number } | null;
    missingAny: number;
    repeated: number;
    repeats: number;
    deliveredWithoutClick: number;
    withoutClickShare: number | null;
    topRefusals: { tiktokCode: number | null; conversions: number; words: string; example: { conversionId: string; eventId: string; message: string | null } }[];
  }[];
}
