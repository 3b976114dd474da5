import type { Command } from 'commander';
import type { ErasureLogView, ErasureView } from '../../contract/erasure-views';
import { CliError } from '../errors';
import { formatRecord, formatTable } from '../output';
import { act, type CliIo } from '../session';

interface EraseFlags {
  userId?: string;
  anonymousId?: string;
  email?: string;
  phone?: string;
}

function erasureRecord(view: ErasureView): string {
  const found = Object.entries(view.identifiers)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${count} ${kind}`)
    .join(', ');
  return formatRecord([
    ['Erasure', view.id],
    ['Identifiers found', found === '' ? 'none' : found],
    ['Events deleted', view.erased.eventsDeleted],
    ['Events stripped', `${view.erased.eventsStripped} (kept for their conversions, without personal data)`],
    ['Conversions anonymised', view.erased.conversionsAnonymised],
    ['Visitor profiles', view.erased.visitors],
    ['Clicks', view.erased.clicks],
    ['Identity links', view.erased.identityLinks],
    ...(view.truncated ? [['Note', 'the identity walk reached its limit: erase the remaining identifiers with another request'] as const] : []),
  ]);
}

export function registerErasureCommands(program: Command, io: CliIo): void {
  program
    .command('erase <workspaceId>')
    .description("erase a person: raw events, profiles, clicks and identity links deleted, conversions' identifying fields removed")
    .option('--user-id <id>', 'the userId your systems send')
    .option('--anonymous-id <id>', 'an anonymousId (e.g. the tracking script\'s sbx_aid)')
    .option('--email <email>', 'email address (hashed before it is looked up; never stored)')
    .option('--phone <phone>', "phone number (read in the workspace's default region without a country code)")
    .action(
      act(io, async ({ request, print }, workspaceId: string, flags: EraseFlags) => {
        const body = Object.fromEntries(Object.entries(flags).filter(([name, value]) => name !== 'json' && value !== undefined));
        if (Object.keys(body).length === 0) throw new CliError('name the person: give --user-id, --anonymous-id, --email or --phone (several to reach more of them)');
        print(await request<ErasureView>('POST', `/admin/workspaces/${encodeURIComponent(workspaceId)}/erasures`, { body }), erasureRecord);
      }),
    );

  program
    .command('erasures <workspaceId>')
    .description('list the erasures done in a workspace (identifiers shown as kinds only; the log keeps keyed digests)')
    .option('--limit <n>', 'how many, newest first (1-200)', '50')
    .action(
      act(io, async ({ request, print }, workspaceId: string, flags: { limit: string }) => {
        const { erasures } = await request<ErasureLogView>('GET', `/admin/workspaces/${encodeURIComponent(workspaceId)}/erasures`, { query: { limit: flags.limit } });
        print(erasures, (rows) =>
          formatTable(
            ['id', 'requested', 'by', 'named by', 'events', 'conversions'],
            rows.map((row) => [row.id, row.requestedAt, row.actor, row.identifiers.map((i) => i.kind).join(', '), row.erased.eventsDeleted + row.erased.eventsStripped, row.erased.conversionsAnonymised]),
            { rightAligned: [4, 5] },
          ),
        );
      }),
    );
}
