import type { ConversionSummaryView, RuleValueView } from '../contract/views';

/*
 * Response shapes of the settings API as the CLI reads them (timestamps arrive as ISO strings), for the answers the
 * contract (contract/views.ts, contract/ad-report.ts) does not declare yet.
 */

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

export interface AdUrlParametersView {
  urlParameters: string;
  macros: Record<string, string>;
  exampleLandingUrl: string;
  instructions: string;
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
