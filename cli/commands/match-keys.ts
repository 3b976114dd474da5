import type { Command } from 'commander';
import type { MatchKeyCoverageView } from '../../contract/event-views';
import { formatTable } from '../output';
import { act, type CliIo } from '../session';

const share = (value: number | null) => (value === null ? '-' : `${(value * 100).toFixed(1)}%`);

/** One row per match key: how many delivered conversions carried it, and from where. */
export function coverageText(coverage: MatchKeyCoverageView): string {
  const rows = coverage.keys.map((k) => [k.key, share(k.share), k.conversions, k.sources.message, k.sources.visitor, k.sources.identity]);
  return [
    `${coverage.delivered} ${coverage.source === null ? '' : `${coverage.source} `}conversions delivered in the last ${coverage.days} days (test mode excluded).`,
    ...(coverage.source === 'offline' || coverage.source === 'crm' ? ['They carry no click or cookie: TikTok matches them on hashed email, phone and user ID alone.'] : []),
    'TikTok matches more conversions the more keys each carries. "visitor": taken from a linked visitor\'s profile or',
    'latest page view; "identity": hashed email or phone linked to the user on another of its devices.',
    '',
    formatTable(['key', 'share', 'conversions', 'from message', 'from visitor', 'from identity'], rows, { rightAligned: [1, 2, 3, 4, 5] }),
  ].join('\n');
}

export function registerMatchKeyCommands(program: Command, io: CliIo): void {
  program
    .command('match-keys <workspaceId>')
    .description('share of delivered conversions that carried each match key (IP, user agent, email, click ID, ...)')
    .option('--days <n>', 'look back this many days (1-366)', '30')
    .option('--source <source>', 'only web, app, offline or crm conversions')
    .action(
      act(io, async ({ request, print }, workspaceId: string, flags: { days: string; source?: string }) => {
        const coverage = await request<MatchKeyCoverageView>('GET', `/admin/workspaces/${encodeURIComponent(workspaceId)}/match-keys`, { query: { days: flags.days, source: flags.source } });
        print(coverage, coverageText);
      }),
    );
}
