import type { ConversionHistoryRow, ConversionRow } from '../../db/types';
import { reasonHelp } from '../../domain/reason-help';
import type { ActorName } from './actor-names';
import { plainValue } from './change-log-text';

/** One step of a conversion's story: a sentence, and the codes and IDs behind it for whoever needs them. */
export interface TimelineEntry {
  at: Date | null;
  summary: string;
  details: { label: string; value: string }[];
}

type Conversion = Pick<ConversionRow, 'message_id' | 'source_event' | 'tiktok_event' | 'created_at' | 'workflow_id' | 'workflow_started_at' | 'ttclid' | 'click_captured_at' | 'click_anonymous_id' | 'attempts' | 'tiktok_code' | 'tiktok_message' | 'status' | 'reason' | 'completed_at'> & {
  received_at: Date | null;
};

/** A name or ID to copy: the console shows what is between backticks as code. */
const literal = (value: unknown) => `\`${String(value)}\``;
const reasonLabel = (reason: unknown) => (typeof reason === 'string' ? (reasonHelp(reason)?.label ?? reason) : 'no reason recorded');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Labels of the history details a person may want to look up (TikTok's request ID for its support, say). */
const DETAIL_LABELS: Record<string, string> = {
  linkedVisitors: 'Linked visitors',
  clickSource: 'Click found on',
  clickAnonymousId: 'Visitor who clicked',
  clickCapturedAt: 'Clicked at',
  eligible: 'Within the attribution window',
  testMode: 'Test mode',
  attempt: 'Attempt',
  deliveryRequestId: 'Signalbox request',
  requestId: "TikTok's request ID",
  code: "TikTok's code",
  message: 'Message',
  httpStatus: 'HTTP status',
  eventsInRequest: 'Events in the same request',
  status: 'Status',
  reason: 'Reason',
  step: 'Step that failed',
  by: 'Asked by',
};

/** Where a click was found (`domain/attribution.ts` ClickSource), in words. */
const CLICK_SOURCES: Record<string, string> = { message: 'this event itself', visitor: "a visitor's profile" };

function detailValue(key: string, value: unknown, nameOf: ActorName): string {
  if (key === 'by') return nameOf(String(value));
  if (key === 'clickSource') return CLICK_SOURCES[String(value)] ?? plainValue(value);
  if (key === 'reason') return `${reasonLabel(value)} (${literal(value)})`;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return plainValue(value);
}

function details(detail: Record<string, unknown>, nameOf: ActorName): TimelineEntry['details'] {
  return Object.entries(detail)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => ({ label: DETAIL_LABELS[key] ?? key, value: detailValue(key, value, nameOf) }));
}

function outcome(detail: Record<string, unknown>): string {
  if (detail.status === 'delivered') return detail.reason === 'test_mode' ? 'Delivered to TikTok as a test event' : 'Delivered to TikTok';
  if (detail.status === 'skipped') return `Not sent: ${reasonLabel(detail.reason)}`;
  return `Failed: ${reasonLabel(detail.reason)}`;
}

/** TikTok's verdict on one attempt in words, its own message quoted as it came; its code and HTTP status stay in the details. */
function attemptAnswer(detail: Record<string, unknown>): string {
  if (detail.code === 0) return 'accepted';
  const said = detail.message ? `: ${literal(detail.message)}` : '';
  return detail.code === null || detail.code === undefined ? `TikTok could not take it${said}` : `refused by TikTok${said}`;
}

function stepSummary(step: string, detail: Record<string, unknown>, nameOf: ActorName): string {
  const visitors = Number(detail.linkedVisitors ?? 0);
  switch (step) {
    case 'identity_resolved':
      if (detail.clickSource === 'message') return `Found the TikTok ad click on this event itself${detail.clickAnonymousId ? `, made on visitor ${literal(detail.clickAnonymousId)}` : ''}`;
      if (detail.clickAnonymousId) return `Found the TikTok ad click, made on visitor ${literal(detail.clickAnonymousId)}`;
      return visitors === 0 ? 'No TikTok ad click found: no visitor (browser or device) is linked to this person' : `No TikTok ad click found on the ${plural(visitors, 'visitor')} linked to this person`;
    case 'window_checked':
      if (detail.matchedOnPerson === true) return "Needs no ad click: TikTok matches a sale off the website or a CRM event on the customer's email, phone or ID";
      return detail.eligible ? 'Checked the attribution window: it can be sent' : `Not credited: ${reasonLabel(detail.reason)}`;
    case 'payload_built':
      return detail.testMode ? 'Prepared the event for TikTok, in test mode' : 'Prepared the event for TikTok';
    case 'delivery_attempt':
      return `Sent to TikTok (attempt ${String(detail.attempt)}): ${attemptAnswer(detail)}`;
    case 'outcome':
      return outcome(detail);
    case 'retry_requested':
      return `Sent again at the request of ${nameOf(String(detail.by))}`;
    default:
      return step.charAt(0).toUpperCase() + step.slice(1).replace(/_/g, ' ');
  }
}

/** Before histories were recorded, the story is told from the conversion's own columns. */
function fromColumns(row: Conversion): TimelineEntry[] {
  const entries: TimelineEntry[] = [{ at: row.created_at, summary: `Became a conversion: ${literal(row.source_event)} → ${row.tiktok_event}`, details: [] }];
  if (row.workflow_started_at) entries.push({ at: row.workflow_started_at, summary: 'Processing started', details: [{ label: 'Workflow', value: row.workflow_id }] });
  if (row.ttclid) entries.push({ at: row.click_captured_at, summary: row.click_anonymous_id === null ? 'Found the TikTok ad click' : `Found the TikTok ad click, made on visitor ${literal(row.click_anonymous_id)}`, details: [{ label: 'Click ID (ttclid)', value: row.ttclid }] });
  if (row.attempts > 0) {
    const answer = row.tiktok_code === null ? [] : [{ label: "TikTok's last answer", value: `${row.tiktok_code} ${row.tiktok_message ?? ''}`.trim() }];
    entries.push({ at: null, summary: `Sent to TikTok ${plural(row.attempts, 'time')}`, details: answer });
  }
  if (row.completed_at) entries.push({ at: row.completed_at, summary: outcome({ status: row.status, reason: row.reason }), details: [] });
  return entries;
}

/** The conversion's timeline in sentences, from the event's arrival to its outcome; each step's codes under `details`. */
export function conversionTimeline(row: Conversion, history: readonly ConversionHistoryRow[], nameOf: ActorName): TimelineEntry[] {
  const received: TimelineEntry = { at: row.received_at, summary: `Your event ${literal(row.source_event)} arrived`, details: [{ label: 'Message ID', value: row.message_id }] };
  if (history.length === 0) return [received, ...fromColumns(row)];
  return [received, ...history.map((entry) => ({ at: entry.at, summary: stepSummary(entry.step, entry.detail, nameOf), details: details(entry.detail, nameOf) }))];
}
