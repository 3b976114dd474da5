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
