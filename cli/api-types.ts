/** Response shapes of the settings API as the CLI reads them (timestamps arrive as ISO strings). */

export interface WorkspaceView {
  id: string;
  name: string;
  attributionWindowDays: number;
  testMode: boolean;
  testEventCode: string | null;
  defaultPhoneRegion: string;
  allowedOrigins: string[];
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

export type RuleValueView = { source: 'order_total'; currency?: string } | { source: 'fixed'; amount: number; currency?: string } | { source: 'none' };

export interface RuleView {
  event: string;
  tiktokEvent: string;
  value: RuleValueView;
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
  conversions: number | null;
  conversionValue: string | null;
  roas: string | null;
  deliveredConversions: number;
  deliveredValue: string | null;
}

export interface AdReportRowView extends AdFiguresView {
  level: string;
  date: string | null;
  entityId: string;
  name: string | null;
  status: string | null;
  campaignId: string | null;
  adgroupId: string | null;
}

export interface AdReportView {
  advertiserId: string;
  level: 'campaign' | 'adgroup' | 'ad';
  from: string;
  to: string;
  granularity: 'day' | 'total';
  rows: AdReportRowView[];
  totals: AdFiguresView & { rows: number };
  statsPulledAt: string | null;
  statsPullError: string | null;
}

export interface ConversionSummaryView {
  id: string;
  status: string;
  reason: string | null;
  sourceEvent: string;
  tiktokEvent: string;
  eventId: string;
  value: number | null;
  currency: string | null;
  testMode: boolean;
  createdAt: string;
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
  requestPayload: unknown;
  deliveryRequest: { id: string; events: number; position: number; sentAt: string; answeredAt: string | null; outcome: string | null } | null;
  tiktokResponse: { code: number | null; message: string | null; requestId: string | null; body: unknown };
  timeline: { at: string; step: string; detail: Record<string, unknown> }[];
  completedAt: string | null;
}

export interface ConversionRetryView {
  requeued: number;
  conversionIds: string[];
}
