import type { Command } from 'commander';
import type { ConversionDetailView, ConversionRetryView } from '../../contract/conversion-detail';
import type { ConversionPageView, ConversionSummaryView } from '../../contract/views';
import { formatRecord, formatTable } from '../output';
import { act, type CliIo } from '../session';

const conversionsPath = (workspaceId: string) => `/admin/workspaces/${encodeURIComponent(workspaceId)}/conversions`;

const money = (c: { value: number | null; currency: string | null }) => (c.value === null ? null : `${c.value} ${c.currency ?? ''}`.trimEnd());

/** `PlaceAnOrder (2 of 2)` when the conversion's rule sent its message as several TikTok events. */
const tiktokEventText = (c: ConversionSummaryView) => (c.messageEvent.of > 1 ? `${c.tiktokEvent} (${c.messageEvent.position} of ${c.messageEvent.of})` : c.tiktokEvent);

/** `2 of 2 TikTok events sent for this message: CompletePayment (<id>, delivered), PlaceAnOrder (this one)`. */
function messageEventsText(c: ConversionDetailView): string {
  const events = c.messageEvents.map((e) => `${e.tiktokEvent} (${e.id === c.id ? 'this one' : `${e.id}, ${e.status}`})`);
  return `${c.messageEvent.position} of ${c.messageEvent.of} TikTok events sent for this message: ${events.join(', ')}`;
}

function listText(page: ConversionPageView): string {
  const table = formatTable(
    ['id', 'status', 'event', 'tiktok event', 'source', 'value', 'created', 'tiktok request', 'reason'],
    page.conversions.map((c) => [c.id, c.status, c.sourceEvent, tiktokEventText(c), c.eventSource, money(c), c.createdAt, c.tiktokRequestId, [c.reason, c.sentWithoutClick && 'sent without a click', ...c.warnings.map((w) => w.code)].filter(Boolean).join(', ')]),
  );
  return page.nextCursor === null ? table : `${table}\n\nMore: add --cursor ${page.nextCursor}`;
}

function noticesText(c: ConversionDetailView): string[] {
  const warnings = c.warnings.map((w) => `  ${w.code}: ${w.message}`);
  const repeats = c.repeatedBy.map((e) => `  event ${e.id} (${e.event ?? e.messageId}) at ${e.receivedAt}: same event_id ${c.eventId}, stored without a new conversion`);
  return [...(warnings.length > 0 ? ['', 'Warnings:', ...warnings] : []), ...(repeats.length > 0 ? ['', 'Repeated by:', ...repeats] : [])];
}

function detailText(c: ConversionDetailView): string {
  const json = (value: unknown) => (value === null || value === undefined ? '-' : JSON.stringify(value, null, 2));
  return [
    formatRecord([
      ['ID', c.id],
      ['Status', c.status],
      ['Reason', c.reason],
      ['Event', `${c.sourceEvent} → ${c.tiktokEvent}`],
      ['Event ID', c.eventId],
      ...(c.messageEvent.of > 1 ? [['Message', messageEventsText(c)] as const] : []),
      ['Event time', c.eventTime],
      ['Source', c.eventSource],
      ['Value', money(c)],
      ['Test mode', c.testMode ? 'yes' : 'no'],
      ['Sent without click', withoutClickText(c)],
      ['Click (ttclid)', c.click.ttclid],
      ['Click captured', c.click.capturedAt],
      ['Click visitor', c.click.anonymousId],
      ['Click found on', clickSourceText(c.click.source)],
      ['_ttp', c.ttp],
      ['Match keys', matchKeysText(c.matchKeys)],
      ['Workflow', c.workflowRunId === null ? c.workflowId : `${c.workflowId} (run ${c.workflowRunId})`],
      ['Workflow UI', c.workflowUrl],
      ['Attempts', c.attempts],
      ['Sent in', c.deliveryRequest && `request ${c.deliveryRequest.id}: event ${c.deliveryRequest.position + 1} of ${c.deliveryRequest.events}, ${c.deliveryRequest.outcome ?? 'no answer recorded'}`],
      ['TikTok code', c.tiktokResponse.code],
      ['TikTok message', c.tiktokResponse.message],
      ['TikTok request', c.tiktokResponse.requestId],
      ['Created', c.createdAt],
      ['Completed', c.completedAt],
    ]),
    ...noticesText(c),
    '',
    'Request payload (its own event, hashed; a batch sends the same envelope with several events):',
    json(c.requestPayload),
    '',
    'TikTok response body:',
    json(c.tiktokResponse.body),
    '',
    'Timeline:',
    formatTable(['at', 'step', 'detail'], c.timeline.map((t) => [t.at, t.step, JSON.stringify(t.detail)])),
  ].join('\n');
}

/** Where the click was found: the converting event itself (a Shopify order's cart attributes or landing page), or a visitor's profile. */
function clickSourceText(source: ConversionDetailView['click']['source']): string | null {
  if (source === null) return null;
  return source === 'message' ? 'the event itself' : "a visitor's profile (the converting visitor's, or one linked to the person)";
}

/** Plain words for a conversion sent with no click inside the window, and the keys TikTok matches it on. */
function withoutClickText(c: ConversionDetailView): string {
  if (!c.sentWithoutClick) return 'no';
  const keys = Object.keys(c.matchKeys ?? {}).sort();
  return `yes: no TikTok click inside the attribution window, so TikTok matches it on ${keys.length > 0 ? keys.join(', ') : 'the keys it carried'}; reports count it under no campaign`;
}

/** `ip from visitor anon-1, email from message`: where each key sent to TikTok came from. */
function matchKeysText(keys: ConversionDetailView['matchKeys']): string | null {
  if (keys === null) return null;
  return Object.entries(keys)
    .map(([key, origin]) => `${key} from ${origin.source}${origin.anonymousId ? ` ${origin.anonymousId}` : ''}`)
    .join(', ');
}

export function registerConversionCommands(program: Command, io: CliIo): void {
  const conversions = program.command('conversions').description('conversions sent (or not) to TikTok, with status and reason');

  conversions
    .command('list <workspaceId>')
    .description('list conversions, newest first')
    .option('--status <status>', 'only pending, delivered, skipped or failed')
    .option('--source <source>', 'only web, app, offline or crm')
    .option('--limit <n>', 'how many (1-200, default 50)')
    .option('--cursor <cursor>', 'the next page, as printed after the previous one')
    .action(
      act(io, async ({ request, print }, workspaceId: string, flags: { status?: string; source?: string; limit?: string; cursor?: string }) => {
        const page = await request<ConversionPageView>('GET', conversionsPath(workspaceId), {
          query: { status: flags.status, source: flags.source, limit: flags.limit, cursor: flags.cursor },
        });
        print(page, listText);
      }, { status: '--status', source: '--source', limit: '--limit', cursor: '--cursor' }),
    );

  conversions
    .command('retry <workspaceId> [conversionIds...]')
    .description('send failed conversions again, by ID or by filter (default: every failed one matching the filter)')
    .option('--status <status>', 'failed (default) or skipped')
    .option('--reason <reason>', 'e.g. tiktok_rejected, event_invalid, expired, internal_error')
    .option('--tiktok-event <name>', 'e.g. CompletePayment')
    .option('--from <time>', 'recorded at or after this ISO-8601 time')
    .option('--to <time>', 'recorded before this ISO-8601 time')
    .action(
      act(io, async ({ request, print }, workspaceId: string, conversionIds: string[], flags: { status?: string; reason?: string; tiktokEvent?: string; from?: string; to?: string; json?: boolean }) => {
        const { json: _json, ...given } = flags;
        const filter = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
        const body = conversionIds.length > 0 ? { conversionIds, ...filter } : filter;
        const result = await request<ConversionRetryView>('POST', `${conversionsPath(workspaceId)}/retry`, { body });
        print(result, (r) => (r.requeued === 0 ? 'Nothing to send again: no failed conversion matched.' : `Sending ${r.requeued} conversion(s) again:\n${r.conversionIds.join('\n')}`));
      }),
    );

  conversions
    .command('show <workspaceId> <conversionId>')
    .description('everything about one conversion: click used, payload sent, TikTok answer')
    .action(
      act(io, async ({ request, print }, workspaceId: string, conversionId: string) => {
        print(await request<ConversionDetailView>('GET', `${conversionsPath(workspaceId)}/${encodeURIComponent(conversionId)}`), detailText);
      }),
    );
}
