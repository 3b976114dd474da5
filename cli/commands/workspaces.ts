import type { Command } from 'commander';
import type { WorkspacesView, WorkspaceView } from '../../contract/views';
import { formatRecord, formatTable } from '../output';
import { act, type CliIo } from '../session';

const BROWSER_PIXEL: Record<WorkspaceView['browserPixel'], string> = {
  off: "off: the tracking script leaves TikTok's pixel alone",
  load: "load: the tracking script loads TikTok's pixel and sends it each conversion with the server's event ID",
  page: "page: the tracking script sends each conversion with the server's event ID to the pixel already on the page",
};

export function workspaceRecord(ws: WorkspaceView): string {
  return formatRecord([
    ['ID', ws.id],
    ['Name', ws.name],
    ['Attribution window', `${ws.attributionWindowDays} days`],
    ['Test mode', ws.testMode ? `on (code ${ws.testEventCode})` : 'off'],
    ['Test event code', ws.testEventCode],
    ['Default phone region', ws.defaultPhoneRegion],
    ['Allowed origins', ws.allowedOrigins.join(', ')],
    ['Consent required', ws.consentRequired ? 'yes: the tracking script stores and sends nothing until consent.grant()' : 'no'],
    ['Exchange rates', Object.entries(ws.exchangeRates ?? {}).map(([code, rate]) => `${code} ${rate}`).join(', ')],
    ['Event retention', `${ws.eventRetentionDays} days`],
    ['Conversion retention', `${ws.conversionRetentionDays} days`],
    ['Match without click', ws.matchWithoutClick ? 'yes: conversions without a click inside the window are sent for TikTok to match on other keys' : 'no: only conversions with a click inside the window are sent'],
    ['Pipeline partitions', String(ws.pipelinePartitions)],
    ['TikTok pixel in the browser', BROWSER_PIXEL[ws.browserPixel]],
    ['Limited Data Use', ws.limitedDataUse ? "on: every event is flagged for TikTok's Limited Data Use" : 'off'],
    ['Created', ws.createdAt],
  ]);
}

export function registerWorkspaceCommands(program: Command, io: CliIo): void {
  const workspaces = program.command('workspaces').description('create, list and show workspaces');

  workspaces
    .command('create <name>')
    .description('create a workspace')
    .action(
      act(io, async ({ request, print }, name: string) => {
        print(await request<WorkspaceView>('POST', '/admin/workspaces', { body: { name } }), workspaceRecord);
      }, { name: '<name>' }),
    );

  workspaces
    .command('list')
    .description('list all workspaces')
    .action(
      act(io, async ({ request, print }) => {
        const { workspaces: all } = await request<WorkspacesView>('GET', '/admin/workspaces');
        print(all, (rows) =>
          formatTable(
            ['id', 'name', 'window', 'test mode', 'region', 'created'],
            rows.map((ws) => [ws.id, ws.name, `${ws.attributionWindowDays}d`, ws.testMode ? 'on' : 'off', ws.defaultPhoneRegion, ws.createdAt]),
          ),
        );
      }),
    );

  workspaces
    .command('show <workspaceId>')
    .description('show a workspace and its settings')
    .action(
      act(io, async ({ request, print }, workspaceId: string) => {
        print(await request<WorkspaceView>('GET', `/admin/workspaces/${encodeURIComponent(workspaceId)}`), workspaceRecord);
      }),
    );
}
