import type { Command } from 'commander';
import type { RuleSuggestionsView } from '../../contract/event-views';
import type { PastEventsPreviewView, PastEventsRunView } from '../../contract/past-event-views';
import type { DeletedRuleView, RulesView, RuleValueView, RuleView } from '../../contract/views';
import { CliError } from '../errors';
import { formatTable } from '../output';
import { act, type CliIo } from '../session';
import { numberOrText } from './settings';

interface RuleFlags {
  tiktokEvent?: string;
  /** Comma-separated TikTok event names. */
  alsoSendAs?: string;
  orderTotal?: boolean;
  fixed?: string;
  currency?: string;
  /** Commander's negation: false when `--no-value` is given. */
  value?: boolean;
  serverOnly?: boolean;
  destination?: string;
}

const rulesPath = (workspaceId: string) => `/admin/workspaces/${encodeURIComponent(workspaceId)}/conversion-rules`;

export function valueText(value: RuleValueView): string {
  if (value.source === 'fixed') return `fixed ${value.amount} ${value.currency ?? ''}`.trimEnd();
  if (value.source === 'order_total') return value.currency ? `order total (default currency ${value.currency})` : 'order total';
  return 'none';
}

/** The rule body from the flags; with no value flag the server applies its default (order total for purchases). */
export function ruleBody(flags: RuleFlags): Record<string, unknown> {
  const chosen = [flags.fixed !== undefined, flags.orderTotal === true, flags.value === false].filter(Boolean).length;
  if (chosen > 1) throw new CliError('choose one of --fixed <amount>, --order-total or --no-value');
  if (flags.fixed !== undefined && flags.currency === undefined) throw new CliError('--currency is required with --fixed');
  const body: Record<string, unknown> = {};
  if (flags.tiktokEvent !== undefined) body.tiktokEvent = flags.tiktokEvent;
  if (flags.alsoSendAs !== undefined) body.alsoSendAs = flags.alsoSendAs.split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (flags.fixed !== undefined) body.value = { source: 'fixed', amount: numberOrText(flags.fixed), currency: flags.currency };
  else if (flags.orderTotal || (flags.currency !== undefined && flags.value !== false)) body.value = { source: 'order_total', currency: flags.currency };
  else if (flags.value === false) body.value = { source: 'none' };
  if (flags.serverOnly === true) body.serverOnly = true;
  if (flags.destination !== undefined) body.destination = flags.destination;
  return body;
}

/** What the rule's API fields are called on this command line. */
const RULE_FLAGS = { tiktokEvent: '--tiktok-event', alsoSendAs: '--also-send-as', 'value.amount': '--fixed', 'value.currency': '--currency', value: 'the value (--fixed, --order-total or --no-value)', serverOnly: '--server-only', destination: '--destination', event: '<event>' };

/** `CompletePayment + PlaceAnOrder`: the rule's TikTok event and those it also sends its events as. */
const tiktokEventsText = (rule: RuleView) => [rule.tiktokEvent, ...rule.alsoSendAs].join(' + ');

const ruleTable = (rules: RuleView[]) =>
  formatTable(['event', 'tiktok event', 'value', 'server only', 'sent to'], rules.map((rule) => [rule.event, tiktokEventsText(rule), valueText(rule.value), rule.serverOnly ? 'yes' : 'no', rule.destination]));

const MAPPING_NAMES = { standard: 'standard event', segment: 'Segment spec event', tiktok: 'TikTok standard event', custom: 'custom event (own name)' } as const;

function suggestionsText({ since, suggestions }: RuleSuggestionsView, workspaceId: string): string {
  if (suggestions.length === 0) return `Every event name received since ${since} has a rule.`;
  const table = formatTable(
    ['event', 'count', 'last seen', 'tiktok event', 'as', 'value'],
    suggestions.map((s) => [s.event, s.count, s.lastSeenAt, s.tiktokEvent, MAPPING_NAMES[s.mapping], valueText(s.value)]),
    { rightAligned: [1] },
  );
  const [first] = suggestions;
  return `Event names received since ${since} that no rule maps:\n\n${table}\n\nTo send one: signalbox rules put ${workspaceId} ${JSON.stringify(first?.event)}`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const pastDays = (days: number) => (days === 1 ? 'the past day' : `the past ${days} days`);

export function pastEventsPreviewText(p: PastEventsPreviewView): string {
  const what = `${plural(p.events, 'stored event', 'stored events')} of ${p.event} from ${pastDays(p.days)}`;
  return `${what} would be sent as ${plural(p.conversions, 'conversion', 'conversions')}. Run again without --preview to send them.`;
}

export function pastEventsRunText(run: PastEventsRunView): string {
  const what = `${plural(run.eventsToSend, 'stored event', 'stored events')} as ${plural(run.conversionsToSend, 'conversion', 'conversions')}`;
  return `Sending ${pastDays(run.days)} of ${run.event} to TikTok on a worker: ${what}. The console's Rules page shows how far it got.`;
}

export function registerRuleCommands(program: Command, io: CliIo): void {
  const rules = program.command('rules').description('conversion rules: which events are sent to TikTok, and their value');

  rules
    .command('put <workspaceId> <event>')
    .description('create or replace the rule for an event (standard events map to their TikTok name)')
    .option('--tiktok-event <name>', 'TikTok event name (default: the standard mapping, else the event name itself)')
    .option('--also-send-as <names>', 'comma-separated TikTok standard events (at most 3) each event is also sent as, each a conversion of its own, e.g. PlaceAnOrder')
    .option('--order-total', "value is the event's order total (default for purchase)")
    .option('--fixed <amount>', 'value is this fixed amount (needs --currency), e.g. for leads and signups')
    .option('--currency <code>', 'ISO 4217 currency of the fixed amount, or the fallback currency of order totals')
    .option('--no-value', 'send no value')
    .option('--server-only', "send these events to TikTok from the server only: the tracking tag does not report them to TikTok's browser pixel (default: it may, when the workspace lets the tag drive the pixel)")
    .option(
      '--destination <where>',
      'auto (default: app events to the TikTok app, events with context.channel "offline" to the Offline Event Set, else the pixel), or always web, app, offline (standard TikTok events only) or crm (custom TikTok events, each naming properties.lead_id)',
    )
    .action(
      act(io, async ({ request, print }, workspaceId: string, event: string, flags: RuleFlags) => {
        const rule = await request<RuleView & { chosen: string }>('PUT', `${rulesPath(workspaceId)}/${encodeURIComponent(event)}`, { body: ruleBody(flags) });
        print(rule, (saved) => `${ruleTable([saved])}\n\n${saved.chosen}`);
      }, RULE_FLAGS),
    );

  rules
    .command('list <workspaceId>')
    .description("list a workspace's conversion rules")
    .action(
      act(io, async ({ request, print }, workspaceId: string) => {
        print((await request<RulesView>('GET', rulesPath(workspaceId))).rules, ruleTable);
      }),
    );

  rules
    .command('suggest <workspaceId>')
    .description('event names received in the last 7 days that no rule maps, with counts and the TikTok event a rule would choose')
    .action(
      act(io, async ({ request, print }, workspaceId: string) => {
        print(await request<RuleSuggestionsView>('GET', `${rulesPath(workspaceId)}/suggestions`), (answer) => suggestionsText(answer, workspaceId));
      }),
    );

  rules
    .command('send-past <workspaceId> <event>')
    .description("make conversions of the event's stored events of the last days that its rule maps now, once each (at most the attribution window, 28 days, and the event retention)")
    .requiredOption('--days <n>', 'how many days back')
    .option('--preview', 'only count what would be sent')
    .action(
      act(
        io,
        async ({ request, print }, workspaceId: string, event: string, flags: { days: string; preview?: boolean }) => {
          const path = `${rulesPath(workspaceId)}/${encodeURIComponent(event)}/backfill`;
          const body = { days: numberOrText(flags.days), dryRun: flags.preview === true };
          if (flags.preview === true) print(await request<PastEventsPreviewView>('POST', path, { body }), pastEventsPreviewText);
          else print(await request<PastEventsRunView>('POST', path, { body }), pastEventsRunText);
        },
        { days: '--days', dryRun: '--preview', event: '<event>' },
      ),
    );

  rules
    .command('delete <workspaceId> <event>')
    .description('delete the rule for an event; its events are no longer sent')
    .action(
      act(io, async ({ request, print }, workspaceId: string, event: string) => {
        const deleted = await request<DeletedRuleView>('DELETE', `${rulesPath(workspaceId)}/${encodeURIComponent(event)}`);
        print(deleted, (result) => `Deleted the conversion rule for ${result.event}`);
      }),
    );
}
