import type { Command } from 'commander';
import { EVENT_SET_KINDS, EVENT_SET_NAMES, eventSetPath } from '../../contract/event-set-kinds';
import type { EventSetChoicesView, TikTokConnectionView } from '../../contract/tiktok-views';
import { CliError } from '../errors';
import { formatTable } from '../output';
import { act, type CliIo } from '../session';

/**
 * `tiktok offline-event-sets|offline-event-set` and `tiktok crm-event-sets|crm-event-set`: the advertiser's Offline
 * Event Set (sales in stores and on the phone) and CRM Event Set, listed and chosen as its pixel is.
 */
export function registerEventSetCommands(tiktok: Command, io: CliIo, tiktokPath: (workspaceId: string) => string, connectionRecord: (answer: TikTokConnectionView) => string): void {
  for (const kind of EVENT_SET_KINDS) {
    const name = EVENT_SET_NAMES[kind];
    const path = (workspaceId: string) => `${tiktokPath(workspaceId)}${eventSetPath(kind)}`;

    tiktok
      .command(`${kind}-event-sets <workspaceId>`)
      .description(`list the selected advertiser's ${name}s (* = selected)`)
      .action(
        act(io, async ({ request, print }, workspaceId: string) => {
          const answer = await request<EventSetChoicesView>('GET', `${path(workspaceId)}s`);
          print(answer, ({ eventSets, selectedEventSetId }) =>
            formatTable(['', 'event set id', 'name'], eventSets.map((set) => [set.eventSetId === selectedEventSetId ? '*' : ' ', set.eventSetId, set.eventSetName])),
          );
        }),
      );

    tiktok
      .command(`${kind}-event-set <workspaceId> [eventSetId]`)
      .description(`select the ${name} ${kind} events are sent to (by ID alone when TikTok cannot list them)`)
      .option('--clear', `send to no ${name}`)
      .action(
        act(io, async ({ request, print }, workspaceId: string, eventSetId: string | undefined, { clear }: { clear?: boolean }) => {
          if ((eventSetId === undefined) === (clear !== true)) throw new CliError(`give the ${name} ID, or --clear`);
          print(await request<TikTokConnectionView>('PUT', path(workspaceId), { body: { eventSetId: clear ? null : eventSetId } }), connectionRecord);
        }, { eventSetId: '<eventSetId>' }),
      );
  }
}
