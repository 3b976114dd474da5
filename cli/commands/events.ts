import type { Command } from 'commander';
import type { EventPageView } from '../../contract/event-views';
import { formatTable } from '../output';
import { act, type CliIo } from '../session';

function listText(page: EventPageView): string {
  const table = formatTable(
    ['id', 'received', 'type', 'event', 'user id', 'anonymous id', 'duplicate of conversion'],
    page.events.map((e) => [e.id, e.receivedAt, e.type, e.eventName, e.userId, e.anonymousId, e.duplicateOfConversionId]),
  );
  return page.nextCursor === null ? table : `${table}\n\nMore: add --cursor ${page.nextCursor}`;
}

export function registerEventCommands(program: Command, io: CliIo): void {
  const events = program.command('events').description('events a workspace received (a repeated order_id / event_id names the conversion it repeats)');

  events
    .command('list <workspaceId>')
    .description('list received events, newest first')
    .option('--event <name>', 'only events with this name')
    .option('--limit <n>', 'how many (1-200, default 50)')
    .option('--cursor <cursor>', 'the next page, as printed after the previous one')
    .action(
      act(
        io,
        async ({ request, print }, workspaceId: string, flags: { event?: string; limit?: string; cursor?: string }) => {
          const page = await request<EventPageView>('GET', `/admin/workspaces/${encodeURIComponent(workspaceId)}/events`, {
            query: { event: flags.event, limit: flags.limit, cursor: flags.cursor },
          });
          print(page, listText);
        },
        { event: '--event', limit: '--limit', cursor: '--cursor' },
      ),
    );
}
