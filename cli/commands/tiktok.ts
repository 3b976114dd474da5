import type { Command } from 'commander';
import type {
  AdUrlParametersView,
  AdvertiserChoicesView,
  AuthorizationUrlView,
  DisconnectedView,
  PixelChoicesView,
  StatsPullView,
  TestConversionView,
  TikTokConnectionStatusView,
  TikTokConnectionSummaryView,
  TikTokConnectionView,
  TikTokScheduleView,
} from '../../contract/tiktok-views';
import { CliError } from '../errors';
import { formatRecord, formatTable } from '../output';
import { act, type CliIo } from '../session';
import { registerEventSetCommands } from './tiktok-event-sets';

const tiktokPath = (workspaceId: string) => `/admin/workspaces/${encodeURIComponent(workspaceId)}/tiktok`;

/** Any answer holding the connection: `PUT …/tiktok/app` gives it without what it lacks, `GET …/tiktok` with its schedule. */
type ConnectionAnswer = TikTokConnectionSummaryView & Partial<Pick<TikTokConnectionStatusView, 'missingPermissions' | 'nextStep' | 'schedule'>>;

/** The owner's next step as the command that does it. */
export function nextStepHint(connection: Pick<ConnectionAnswer, 'workspaceId' | 'nextStep'>): string {
  const ws = connection.workspaceId;
  switch (connection.nextStep) {
    case 'select_advertiser':
      return `choose the advertiser: signalbox tiktok advertisers ${ws}, then signalbox tiktok advertiser ${ws} <advertiser-id>`;
    case 'select_pixel':
      return `choose the pixel: signalbox tiktok pixels ${ws}, then signalbox tiktok pixel ${ws} <pixel-code>`;
    case 'reauthorize':
      return `TikTok refused the token: authorize again with signalbox tiktok connect ${ws}`;
    case null:
      return 'none, the connection is complete';
    default:
      return '-';
  }
}

function permissionsText(connection: ConnectionAnswer): string {
  if (connection.grantedScopes === null) return 'unknown (manual token)';
  const missing = connection.missingPermissions ?? [];
  return missing.length === 0 ? 'all three granted' : `MISSING ${missing.join(', ')}: authorize again and keep every permission selected`;
}

function scheduleText(schedule: TikTokScheduleView | null): string {
  if (schedule === null) return 'none (created when an advertiser is selected)';
  const state = schedule.paused ? `paused${schedule.note ? ` (${schedule.note})` : ''}` : 'active';
  return `${schedule.scheduleId}, ${state}, next run ${schedule.nextRunAt ?? '-'}, last run ${schedule.lastRunAt ?? '-'}`;
}

const eventSetText = (id: string | null, name: string | null) => (id === null || name === null ? id : `${id} (${name})`);

export function connectionRecord(connection: ConnectionAnswer): string {
  return formatRecord([
    ['Workspace', connection.workspaceId],
    ['Source', connection.source],
    ['Status', connection.status],
    ['Advertiser ID', connection.advertiserId],
    ['Currency, time zone', connection.advertiserCurrency === null && connection.advertiserTimeZone === null ? 'not reported yet (read at each statistics pull)' : `${connection.advertiserCurrency ?? '-'}, ${connection.advertiserTimeZone ?? '-'}`],
    ['Pixel code', connection.pixelCode],
    ['App ID', connection.appId],
    ['Offline Event Set', eventSetText(connection.offlineEventSetId, connection.offlineEventSetName)],
    ['CRM Event Set', eventSetText(connection.crmEventSetId, connection.crmEventSetName)],
    ['Permissions', permissionsText(connection)],
    ['Authorized', connection.authorizedAt],
    ...(connection.schedule === undefined ? [] : ([['Statistics schedule', scheduleText(connection.schedule)]] as const)),
    ['Statistics pulled', connection.statsPulledAt],
    ['Last pull error', connection.statsPullError],
    ['Updated', connection.updatedAt],
    ...(connection.nextStep === undefined ? [] : ([['Next step', nextStepHint(connection)]] as const)),
  ]);
}

function authorizationText(workspaceId: string, authorization: AuthorizationUrlView): string {
  return [
    'Open this URL in a browser, log in to TikTok, select the advertiser and keep all three permissions',
    '(read ad performance data, send conversion events, access the pixel) selected, and for sales in stores or from a',
    'CRM, Offline Events Management or CRM Event Management, then authorize:',
    '',
    `  ${authorization.url}`,
    '',
    `The link works until ${authorization.expiresAt}, once. TikTok then sends the browser back to Signalbox, which`,
    'completes the connection. If that page cannot reach this server, copy auth_code and state from the address bar:',
    `  signalbox tiktok callback ${workspaceId} --code <auth_code> --state <state>`,
  ].join('\n');
}

function testConversionText(answer: TestConversionView): string {
  return [
    formatRecord([
      ['Accepted', answer.accepted ? 'yes' : 'no'],
      ['TikTok code', answer.code],
      ['TikTok message', answer.message],
      ['Request ID', answer.requestId],
      ['Test event code', answer.testEventCode],
      ['Pixel code', answer.pixelCode],
      ['Event ID', answer.eventId],
    ]),
    '',
    answer.accepted
      ? `Look for a CompletePayment of 1.00 USD in TikTok Events Manager → ${answer.pixelCode} → Test Events (code ${answer.testEventCode}).`
      : 'TikTok refused the test conversion: see its code and message above.',
  ].join('\n');
}

function registerOAuthCommands(tiktok: Command, io: CliIo): void {
  tiktok
    .command('connect <workspaceId>')
    .description('start connecting through TikTok OAuth: prints the authorization URL to open in a browser')
    .action(
      act(io, async ({ request, print }, workspaceId: string) => {
        print(await request<AuthorizationUrlView>('POST', `${tiktokPath(workspaceId)}/oauth/authorize`), (answer) => authorizationText(workspaceId, answer));
      }),
    );

  tiktok
    .command('callback <workspaceId>')
    .description("complete OAuth by hand with the auth_code and state from the browser's address bar")
    .requiredOption('--code <authCode>', 'the auth_code TikTok added to the redirect')
    .requiredOption('--state <state>', 'the state TikTok echoed in the redirect')
    .action(
      act(io, async ({ request, print }, workspaceId: string, flags: { code: string; state: string }) => {
        const body = { authCode: flags.code, state: flags.state };
        print(await request<TikTokConnectionView>('POST', `${tiktokPath(workspaceId)}/oauth/callback`, { body }), connectionRecord);
      }, { authCode: '--code', state: '--state' }),
    );

  tiktok
    .command('advertisers <workspaceId>')
    .description('list the advertisers the authorization covers (* = selected)')
    .action(
      act(io, async ({ request, print }, workspaceId: string) => {
        const answer = await request<AdvertiserChoicesView>('GET', `${tiktokPath(workspaceId)}/advertisers`);
        print(answer, ({ advertisers, selectedAdvertiserId }) =>
          formatTable(['', 'advertiser id', 'name'], advertisers.map((a) => [a.advertiserId === selectedAdvertiserId ? '*' : ' ', a.advertiserId, a.advertiserName])),
        );
      }),
    );

  tiktok
    .command('advertiser <workspaceId> <advertiserId>')
    .description('select the primary advertiser (starts its hourly statistics schedule)')
    .action(
      act(io, async ({ request, print }, workspaceId: string, advertiserId: string) => {
        print(await request<TikTokConnectionView>('PUT', `${tiktokPath(workspaceId)}/advertiser`, { body: { advertiserId } }), connectionRecord);
      }, { advertiserId: '<advertiserId>' }),
    );

  tiktok
    .command('pixels <workspaceId>')
    .description("list the selected advertiser's pixels (* = selected)")
    .action(
      act(io, async ({ request, print }, workspaceId: string) => {
        const answer = await request<PixelChoicesView>('GET', `${tiktokPath(workspaceId)}/pixels`);
        print(answer, ({ pixels, selectedPixelCode }) =>
          formatTable(['', 'pixel code', 'name', 'pixel id'], pixels.map((p) => [p.pixelCode === selectedPixelCode ? '*' : ' ', p.pixelCode, p.pixelName, p.pixelId])),
        );
      }),
    );

  tiktok
    .command('pixel <workspaceId> <pixelCode>')
    .description('select the pixel conversions are sent to (event_source_id)')
    .action(
      act(io, async ({ request, print }, workspaceId: string, pixelCode: string) => {
        print(await request<TikTokConnectionView>('PUT', `${tiktokPath(workspaceId)}/pixel`, { body: { pixelCode } }), connectionRecord);
      }, { pixelCode: '<pixelCode>' }),
    );
}

function registerConnectionCommands(tiktok: Command, io: CliIo): void {
  tiktok
    .command('set <workspaceId>')
    .description('connect with an Events API access token from TikTok Events Manager (stored encrypted)')
    .requiredOption('--token <accessToken>', 'Events API access token')
    .requiredOption('--pixel <pixelCode>', 'pixel code, e.g. CIDGJS3C77U7QBTMVDP0')
    .option('--advertiser <advertiserId>', 'advertiser ID (digits), needed for campaign statistics')
    .action(
      act(io, async ({ request, print }, workspaceId: string, flags: { token: string; pixel: string; advertiser?: string }) => {
        const body = { accessToken: flags.token, pixelCode: flags.pixel, advertiserId: flags.advertiser };
        print(await request<TikTokConnectionView>('PUT', tiktokPath(workspaceId), { body }), connectionRecord);
      }, { accessToken: '--token', pixelCode: '--pixel', advertiserId: '--advertiser' }),
    );

  tiktok
    .command('app <workspaceId> [appId]')
    .description('set the TikTok App ID that mobile-app events are sent under (in place of the pixel)')
    .option('--clear', 'stop sending app events')
    .action(
      act(io, async ({ request, print }, workspaceId: string, appId: string | undefined, { clear }: { clear?: boolean }) => {
        if ((appId === undefined) === (clear !== true)) throw new CliError('give the App ID, or --clear');
        print(await request<TikTokConnectionSummaryView>('PUT', `${tiktokPath(workspaceId)}/app`, { body: { appId: clear ? null : appId } }), connectionRecord);
      }, { appId: '<appId>' }),
    );

  tiktok
    .command('status <workspaceId>')
    .alias('show')
    .description('the connection (never the token), missing permissions, statistics schedule and next step')
    .action(
      act(io, async ({ request, print }, workspaceId: string) => {
        print(await request<TikTokConnectionStatusView>('GET', tiktokPath(workspaceId)), connectionRecord);
      }),
    );

  tiktok
    .command('pull <workspaceId>')
    .description('pull TikTok statistics now (triggers the workspace schedule)')
    .action(
      act(io, async ({ request, print }, workspaceId: string) => {
        const answer = await request<StatsPullView>('POST', `${tiktokPath(workspaceId)}/stats/pull`);
        print(answer, ({ scheduleId }) => `Statistics pull started (Temporal schedule ${scheduleId}). signalbox tiktok status ${workspaceId} shows when it has finished.`);
      }),
    );

  tiktok
    .command('disconnect <workspaceId>')
    .alias('delete')
    .description('remove the connection, its token and its statistics schedule')
    .action(
      act(io, async ({ request, print }, workspaceId: string) => {
        print(await request<DisconnectedView>('DELETE', tiktokPath(workspaceId)), () => `Removed the TikTok connection of ${workspaceId} and its statistics schedule`);
      }),
    );

  tiktok
    .command('test <workspaceId>')
    .description("send one test conversion with the workspace's test event code and show TikTok's answer")
    .action(
      act(io, async ({ request, print }, workspaceId: string) => {
        const answer = await request<TestConversionView>('POST', `${tiktokPath(workspaceId)}/test-conversion`);
        print(answer, testConversionText);
        if (!answer.accepted) throw new CliError(`TikTok refused the test conversion (${answer.code ?? 'HTTP'}: ${answer.message})`);
      }),
    );
}

export function adUrlParametersText(answer: AdUrlParametersView): string {
  return [
    'Add to the landing page URL of every TikTok ad:',
    '',
    `  ${answer.urlParameters}`,
    '',
    `e.g. ${answer.exampleLandingUrl}`,
    '',
    answer.instructions,
  ].join('\n');
}

export function registerTikTokCommands(program: Command, io: CliIo): void {
  const tiktok = program.command('tiktok').description("the workspace's TikTok connection: OAuth or a manual token, advertiser, pixel, event sets, statistics, test mode");
  registerOAuthCommands(tiktok, io);
  registerConnectionCommands(tiktok, io);
  registerEventSetCommands(tiktok, io, tiktokPath, connectionRecord);
  tiktok
    .command('url-parameters <workspaceId>')
    .description("the URL parameters every ad's landing page needs, so reports show Signalbox's deliveries per campaign, ad group and ad")
    .action(
      act(io, async ({ request, print }, workspaceId: string) => {
        print(await request<AdUrlParametersView>('GET', `${tiktokPath(workspaceId)}/ad-url-parameters`), adUrlParametersText);
      }),
    );
}
