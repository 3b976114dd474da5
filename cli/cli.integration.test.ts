import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { reservePort } from '../devstack/ports';
import { adminApiEnv, runSignalbox } from '../test/helpers/cli';
import { asPerson, personIn } from '../test/helpers/console-client';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database';
import { createBatchRecorder } from '../api/ingest/record-batch';
import { buildTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../test/helpers/test-app';

let testDb: TestDatabase;
let app: FastifyInstance;
let repos: TestApp['repos'];
let url: string;
/** Where the CLI looks for running dev stacks: a folder of this test's own, never the machine's. */
let runtimeDir: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  ({ app, repos } = buildTestApp(testDb.db));
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  runtimeDir = mkdtempSync(path.join(os.tmpdir(), 'signalbox-cli-runtime-'));
});
afterAll(async () => {
  rmSync(runtimeDir, { recursive: true, force: true });
  await app.close();
  await testDb.destroy();
});

/** Runs the CLI as a user would, against the listening app; settings come from the environment unless given. */
function signalbox(args: string[], { env = adminApiEnv(url), cwd = os.tmpdir() }: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) {
  return runSignalbox(args, { env, cwd });
}

describe('signalbox CLI', () => {
  it('sets up a workspace end to end, with JSON for scripts and tables for people', async () => {
    const created = await signalbox(['workspaces', 'create', 'Candle shop', '--json']);
    expect(created.code).toBe(0);
    const workspace = JSON.parse(created.stdout);
    expect(workspace).toMatchObject({ name: 'Candle shop', attributionWindowDays: 30 });

    const key = await signalbox(['keys', 'create', workspace.id, '--name', 'backend']);
    expect(key.stdout).toMatch(/^Key: +dk_[A-Za-z0-9_-]{32}$/m);
    expect(key.stdout).toContain('shown only once');
    const origins = await signalbox(['settings', 'set', workspace.id, '--allowed-origins', 'https://candles.example, http://localhost:3000']);
    expect(origins.stdout).toMatch(/^Allowed origins: +https:\/\/candles\.example, http:\/\/localhost:3000$/m);
    const browserKey = await signalbox(['keys', 'create', workspace.id, '--name', 'site', '--browser']);
    expect(browserKey.stdout).toMatch(/^Kind: +browser$/m);
    expect(browserKey.stdout).toMatch(/^Key: +pk_[A-Za-z0-9_-]{32}$/m);
    expect(browserKey.stdout).toContain('Pages on https://candles.example, http://localhost:3000 may use it.');
    const listed = await signalbox(['keys', 'list', workspace.id]);
    expect(listed.stdout.split('\n')[0]).toMatch(/^ID +NAME +KIND +PREFIX +CREATED +REVOKED$/);
    expect(listed.stdout).toMatch(/backend +secret +dk_\S{6}…/);
    expect(listed.stdout).toMatch(/site +browser +pk_\S{6}…/);
    const cleared = JSON.parse((await signalbox(['settings', 'set', workspace.id, '--clear-allowed-origins', '--json'])).stdout);
    expect(cleared.allowedOrigins).toEqual([]);

    expect((await signalbox(['rules', 'put', workspace.id, 'purchase'])).stdout).toMatch(/purchase +CompletePayment +order total/);
    expect((await signalbox(['rules', 'put', workspace.id, 'lead', '--fixed', '25', '--currency', 'USD'])).stdout).toMatch(/lead +SubmitForm +fixed 25 USD/);
    const serverOnly = await signalbox(['rules', 'put', workspace.id, 'subscription_renewed', '--no-value', '--server-only']);
    expect(serverOnly.stdout).toMatch(/^EVENT +TIKTOK EVENT +VALUE +SERVER ONLY +SENT TO$/m);
    expect(serverOnly.stdout).toMatch(/^subscription_renewed +subscription_renewed +none +yes +auto$/m);
    expect(serverOnly.stdout.split('\n').at(-1)).toMatch(/ Sent by the server only: the tracking tag does not report these events to TikTok's browser pixel\.$/);
    const rules = JSON.parse((await signalbox(['--json', 'rules', 'list', workspace.id])).stdout);
    expect(rules).toEqual([
      { event: 'lead', tiktokEvent: 'SubmitForm', alsoSendAs: [], value: { source: 'fixed', amount: 25, currency: 'USD' }, serverOnly: false, destination: 'auto' },
      { event: 'purchase', tiktokEvent: 'CompletePayment', alsoSendAs: [], value: { source: 'order_total' }, serverOnly: false, destination: 'auto' },
      { event: 'subscription_renewed', tiktokEvent: 'subscription_renewed', alsoSendAs: [], value: { source: 'none' }, serverOnly: true, destination: 'auto' },
    ]);
    const table = (await signalbox(['rules', 'list', workspace.id])).stdout;
    expect(table).toMatch(/^lead +SubmitForm +fixed 25 USD +no +auto$/m);
    expect(table).toMatch(/^subscription_renewed +subscription_renewed +none +yes +auto$/m);
    const offline = await signalbox(['rules', 'put', workspace.id, 'Store Sale', '--tiktok-event', 'CompletePayment', '--destination', 'offline']);
    expect(offline.stdout).toMatch(/^Store Sale +CompletePayment +order total +no +offline$/m);
    const refused = await signalbox(['rules', 'put', workspace.id, 'Lead Qualified', '--tiktok-event', 'Lead', '--destination', 'crm']);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('names Lead, a TikTok standard event, but a rule sending to the CRM Event Set takes custom events only') });
    await signalbox(['rules', 'delete', workspace.id, 'Store Sale']);

    const settings = await signalbox(['settings', 'set', workspace.id, '--window', '7', '--test-mode', '--test-event-code', 'TEST12345']);
    expect(settings.stdout).toMatch(/^Attribution window: +7 days$/m);
    expect(settings.stdout).toMatch(/^Test mode: +on \(code TEST12345\)$/m);

    // `--token` after `tiktok set` is the TikTok token; the admin token still comes from the environment.
    const tiktok = await signalbox(['tiktok', 'set', workspace.id, '--token', 'act.tiktok-token-123', '--pixel', 'CIDGJS3C77U7QBTMVDP0', '--advertiser', '7012345678901234567']);
    expect(tiktok.stdout).toMatch(/^Pixel code: +CIDGJS3C77U7QBTMVDP0$/m);
    expect(tiktok.stdout).not.toContain('act.tiktok-token-123');

    const conversions = await signalbox(['conversions', 'list', workspace.id, '--status', 'failed']);
    expect(conversions).toEqual({ code: 0, stdout: 'ID  STATUS  EVENT  TIKTOK EVENT  SOURCE  VALUE  CREATED  TIKTOK REQUEST  REASON', stderr: '' });
  });

  it("prints the server's message and exits non-zero when the server refuses", async () => {
    const ws = JSON.parse((await signalbox(['workspaces', 'create', 'Shop', '--json'])).stdout);
    const noCurrency = await signalbox(['rules', 'put', ws.id, 'lead', '--fixed', '25']);
    expect(noCurrency).toEqual({ code: 1, stdout: '', stderr: 'Error: --currency is required with --fixed' });
    const unknown = await signalbox(['conversions', 'show', ws.id, '00000000-0000-4000-8000-000000000000']);
    expect(unknown.stderr).toBe('Error: conversion 00000000-0000-4000-8000-000000000000 does not exist in this workspace');
    const wrongToken = await signalbox(['--token', 'wrong-token', 'workspaces', 'list']);
    expect(wrongToken).toMatchObject({ code: 1, stderr: 'Error: admin token is not valid' });
  });

  it('users create prints what it did: an existing account keeps its password, one never confirmed gets the one given', async () => {
    const ws = JSON.parse((await signalbox(['workspaces', 'create', 'People shop', '--json'])).stdout);
    const created = await signalbox(['users', 'create', 'jo@people.example', '--owner', ws.id, '--password', 'the first long password']);
    expect(created.stdout).toMatch(/^Role: +owner of ws_\S+$/m);
    expect(created.stdout.split('\n').at(-1)).toBe('Created the account jo@people.example, owner of this workspace: it signs in with this email and the password given.');

    const again = await signalbox(['users', 'create', 'jo@people.example', '--owner', ws.id, '--password', 'another long password']);
    expect(again.code).toBe(0);
    expect(again.stdout.split('\n').at(-1)).toBe('jo@people.example already had an account: it is now owner of this workspace and keeps its own password and name. The password given was not used.');
    expect(JSON.parse((await signalbox(['users', 'create', 'jo@people.example', '--owner', ws.id, '--json'])).stdout)).toMatchObject({ account: 'existing', passwordSet: false });

    // An account made with an invitation link shown to whoever invited (no mail server here): its address was never confirmed.
    const owner = await personIn(app, ws.id, 'owner@people.example', 'owner');
    const shown = (await asPerson(app, owner)('POST', `workspaces/${ws.id}/invitations`, { email: 'claimed@people.example', role: 'viewer' })).json();
    expect((await app.inject({ method: 'POST', url: `/console/api/invitations/${shown.url.split('/invitations/')[1]}/accept`, payload: { password: 'set by somebody else' } })).statusCode).toBe(200);
    const invited = await signalbox(['users', 'create', 'claimed@people.example', '--owner', ws.id]);
    expect(invited.stdout).toContain('claimed@people.example has an account whose address was never confirmed');
    expect(invited.stdout).toMatch(/^Send them this link \(single use\): https:\/\/\S+\/console\/invitations\/[A-Za-z0-9_-]{43}$/m);
    const replaced = await signalbox(['users', 'create', 'claimed@people.example', '--owner', ws.id, '--password', 'the operator chose this']);
    expect(replaced.stdout).toContain('the password given replaced its password, every session of it was ended, and it is now confirmed and owner of this workspace');
  });

  it('sends failed conversions again by ID or by filter, and shows their timeline', async () => {
    const ws = JSON.parse((await signalbox(['workspaces', 'create', 'Retry shop', '--json'])).stdout);
    await signalbox(['rules', 'put', ws.id, 'purchase']);
    const purchase = (n: number) => ({ type: 'track' as const, messageId: `retry-${n}`, event: 'purchase', userId: 'u1', properties: { order_id: `retry-o-${n}`, total: n } });
    const workspace = (await repos.workspaces.find(ws.id))!;
    const [first, second] = (await createBatchRecorder(repos)(workspace, [purchase(1), purchase(2)], { receivedAt: new Date() })).conversions;
    for (const conversion of [first, second]) await repos.conversions.finish(conversion!.id, { status: 'failed', reason: 'tiktok_rejected', tiktokCode: 40001 });

    expect(await signalbox(['conversions', 'retry', ws.id, first!.id])).toEqual({ code: 0, stdout: `Sending 1 conversion(s) again:\n${first!.id}`, stderr: '' });
    expect((await signalbox(['conversions', 'retry', ws.id, '--reason', 'tiktok_rejected', '--json'])).stdout).toBe(JSON.stringify({ requeued: 1, conversionIds: [second!.id] }, null, 2));
    expect((await signalbox(['conversions', 'retry', ws.id, '--reason', 'tiktok_rejected'])).stdout).toBe('Nothing to send again: no failed conversion matched.');
    expect(await signalbox(['conversions', 'retry', ws.id, first!.id, '--reason', 'expired'])).toMatchObject({ code: 1, stderr: expect.stringContaining('conversionIds cannot be combined with a filter') });
    const shown = await signalbox(['conversions', 'show', ws.id, first!.id]);
    expect(shown.stdout).toMatch(/^Status: +pending$/m);
    expect(shown.stdout).toMatch(/ retry_requested +\{"by":"operator"\}$/m);
  });

  it('sets the event retention and erases a person, then lists the erasure without the identifiers', async () => {
    const ws = JSON.parse((await signalbox(['workspaces', 'create', 'Privacy shop', '--json'])).stdout);
    expect((await signalbox(['settings', 'set', ws.id, '--retention-days', '14'])).stdout).toMatch(/^Event retention: +14 days$/m);
    expect((await signalbox(['settings', 'set', ws.id, '--retention-days', '0'])).stderr).toBe('Error: eventRetentionDays must be a whole number of days from 1 to 3650');

    const erased = await signalbox(['erase', ws.id, '--email', 'pat@example.com', '--user-id', 'user-pat']);
    expect(erased.code).toBe(0);
    expect(erased.stdout).toMatch(/^Identifiers found: +1 user_id, 1 email_sha256$/m);
    expect(erased.stdout).toMatch(/^Events deleted: +0$/m);
    expect((await signalbox(['erase', ws.id])).stderr).toBe('Error: name the person: give --user-id, --anonymous-id, --email or --phone (several to reach more of them)');
    expect((await signalbox(['erase', ws.id, '--email', 'pat-at-example'])).stderr).toBe('Error: email is not an email address (nor the SHA-256 of one)');

    const listed = await signalbox(['erasures', ws.id]);
    expect(listed.stdout.split('\n')).toEqual([expect.stringMatching(/^ID +REQUESTED +BY +NAMED BY +EVENTS +CONVERSIONS$/), expect.stringMatching(/ operator +user_id, email_sha256 +0 +0$/)]);
    expect(listed.stdout).not.toContain('pat');
  });

  it('finds the server through .signalbox/dev-stack.json in a parent directory', async () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'signalbox-cli-'));
    mkdirSync(path.join(project, '.signalbox'));
    mkdirSync(path.join(project, 'src', 'deep'), { recursive: true });
    writeFileSync(path.join(project, '.signalbox', 'dev-stack.json'), JSON.stringify({ ingestUrl: url, adminToken: TEST_ADMIN_TOKEN }));
    try {
      const listed = await signalbox(['workspaces', 'list'], { env: { XDG_RUNTIME_DIR: runtimeDir }, cwd: path.join(project, 'src', 'deep') });
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(/Candle shop/);
      expect((await signalbox(['health'], { env: { XDG_RUNTIME_DIR: runtimeDir }, cwd: path.join(project, 'src') })).stdout).toBe('Signalbox is ready');
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('finds the dev stack through SIGNALBOX_DATA_DIR first, and names the server and where it came from with --verbose', async () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'signalbox-cli-'));
    // The project's own .signalbox names a stack that is not running (a reserved port nothing listens on); the one meant is elsewhere.
    const closedPort = await reservePort();
    const closed = `http://127.0.0.1:${closedPort.port}`;
    mkdirSync(path.join(project, '.signalbox'));
    writeFileSync(path.join(project, '.signalbox', 'dev-stack.json'), JSON.stringify({ ingestUrl: closed, adminToken: 'stale-token' }));
    const dataDir = path.join(project, 'other-data');
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, 'dev-stack.json'), JSON.stringify({ ingestUrl: url, adminToken: TEST_ADMIN_TOKEN }));
    try {
      const env = { XDG_RUNTIME_DIR: runtimeDir, SIGNALBOX_DATA_DIR: 'other-data' };
      const listed = await signalbox(['--verbose', 'workspaces', 'list'], { env, cwd: project });
      expect(listed.code).toBe(0);
      expect(listed.stderr).toBe(`Signalbox at ${url} (from SIGNALBOX_DATA_DIR=other-data: ${path.join(dataDir, 'dev-stack.json')})`);
      expect(listed.stdout).toMatch(/Candle shop/);

      const unreachable = await signalbox(['workspaces', 'list'], { env: { XDG_RUNTIME_DIR: runtimeDir }, cwd: project });
      expect(unreachable.code).toBe(1);
      expect(unreachable.stderr).toMatch(
        new RegExp(`^Error: cannot reach Signalbox at ${closed.replace(/[.]/g, '\\.')} \\(from ${path.join(project, '.signalbox', 'dev-stack.json').replace(/[.]/g, '\\.')}\\): .*ECONNREFUSED`),
      );
    } finally {
      closedPort.release();
      rmSync(project, { recursive: true, force: true });
    }
  });

  it("sets and shows what the tracking script does with TikTok's pixel and Limited Data Use, and names a wrong mode by its flag", async () => {
    const ws = JSON.parse((await signalbox(['workspaces', 'create', 'Pixel shop', '--json'])).stdout);
    expect(ws).toMatchObject({ browserPixel: 'off', limitedDataUse: false });
    const set = await signalbox(['settings', 'set', ws.id, '--browser-pixel', 'page', '--limited-data-use']);
    expect(set.stdout).toMatch(/^TikTok pixel in the browser: +page: the tracking script sends each conversion with the server's event ID to the pixel already on the page$/m);
    expect(set.stdout).toMatch(/^Limited Data Use: +on: every event is flagged for TikTok's Limited Data Use$/m);
    const shown = await signalbox(['workspaces', 'show', ws.id]);
    expect(shown.stdout).toMatch(/^TikTok pixel in the browser: +page: /m);
    expect(shown.stdout).toMatch(/^Limited Data Use: +on: /m);
    expect(JSON.parse((await signalbox(['settings', 'set', ws.id, '--browser-pixel', 'load', '--no-limited-data-use', '--json'])).stdout)).toMatchObject({ browserPixel: 'load', limitedDataUse: false });
    expect(await signalbox(['settings', 'set', ws.id, '--browser-pixel', 'on'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: --browser-pixel must be "off" (the tag leaves TikTok\'s pixel alone), "load" (the tag loads the pixel) or "page" (the tag uses the pixel already on the page)',
    });
    expect((await signalbox(['workspaces', 'show', ws.id, '--json'])).stdout).toContain('"browserPixel": "load"');
    const help = await signalbox(['settings', 'set', '--help']);
    expect(help.stdout).toContain('--browser-pixel <mode>');
    expect(help.stdout).toContain('--no-limited-data-use');
  });

  it("phrases the server's refusals in the CLI's own flags", async () => {
    const ws = JSON.parse((await signalbox(['workspaces', 'create', 'Flag shop', '--json'])).stdout);
    expect(await signalbox(['settings', 'set', ws.id, '--window', '365'])).toEqual({ code: 1, stdout: '', stderr: 'Error: --window must be a whole number of days from 1 to 90' });
    expect((await signalbox(['settings', 'set', ws.id, '--pipeline-partitions', 'many'])).stderr).toBe('Error: --pipeline-partitions must be a whole number of workflows from 1 to 16');
    expect((await signalbox(['settings', 'set', ws.id, '--pipeline-partitions', '4'])).stdout).toMatch(/^Pipeline partitions: +4$/m);
    expect((await signalbox(['settings', 'set', ws.id, '--test-mode'])).stderr).toBe(
      'Error: --test-event-code is required while --test-mode is true: copy it from TikTok Events Manager > Test events',
    );
    expect((await signalbox(['settings', 'set', ws.id, '--allowed-origins', 'https://ok.example,shop.example'])).stderr).toMatch(/^Error: --allowed-origins \(item 2\) must be an origin/);
    expect((await signalbox(['rules', 'put', ws.id, 'lead', '--fixed', 'lots', '--currency', 'USD'])).stderr).toBe('Error: --fixed must be a number');
    expect((await signalbox(['rules', 'put', ws.id, 'lead', '--fixed', '5', '--currency', 'XYZ'])).stderr).toBe(
      'Error: --currency must be an ISO 4217 currency code such as USD or EUR',
    );
    expect((await signalbox(['rules', 'put', ws.id, 'Order Completed', '--also-send-as', 'placeanorder'])).stderr).toBe(
      'Error: --also-send-as names "placeanorder", which is not a TikTok standard event: did you mean PlaceAnOrder?',
    );
    expect((await signalbox(['rules', 'put', ws.id, 'Order Completed', '--also-send-as', 'PlaceAnOrder,Purchase,Lead,Subscribe'])).stderr).toBe(
      'Error: --also-send-as must name at most 3 TikTok events, not 4',
    );
    expect((await signalbox(['conversions', 'list', ws.id, '--limit', '0'])).stderr).toBe('Error: --limit must be a whole number from 1 to 200');
    expect((await signalbox(['conversions', 'list', ws.id, '--source', 'store'])).stderr).toBe('Error: --source must be one of web, app, offline, crm');
    expect((await signalbox(['tiktok', 'set', ws.id, '--token', 'act.x', '--pixel', 'lower-case'])).stderr).toBe(
      'Error: --pixel must be the pixel code: upper-case letters and digits, e.g. CIDGJS3C77U7QBTMVDP0',
    );
  });

  it("says what rules put chose for Segment's names, and suggests rules for unmapped events", async () => {
    const ws = JSON.parse((await signalbox(['workspaces', 'create', 'Segment shop', '--json'])).stdout);
    const put = await signalbox(['rules', 'put', ws.id, 'Order Completed']);
    expect(put.stdout).toMatch(/^Order Completed +CompletePayment +order total +no +auto$/m);
    expect(put.stdout.split('\n').at(-1)).toBe(
      'Order Completed is a Segment spec event: sent to TikTok as CompletePayment, valued at the amount in the event: properties.total, else value, revenue, or price × quantity.',
    );

    const shopKey = JSON.parse((await signalbox(['keys', 'create', ws.id, '--name', 'backend', '--json'])).stdout).key;
    const send = (event: string, n: number) =>
      fetch(`${url}/v1/track`, {
        method: 'POST',
        headers: { authorization: `Bearer ${shopKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ event, messageId: `${event}-${n}`, anonymousId: 'visitor-1' }),
      });
    for (const [event, times] of [['Product Viewed', 3], ['Products Searched', 1], ['Order Completed', 1]] as const) {
      for (let n = 0; n < times; n++) expect((await send(event, n)).status).toBe(200);
    }
    const suggested = await signalbox(['rules', 'suggest', ws.id]);
    const lines = suggested.stdout.split('\n');
    expect(lines[2]).toMatch(/^EVENT +COUNT +LAST SEEN +TIKTOK EVENT +AS +VALUE$/);
    expect(lines[3]).toMatch(/^Product Viewed +3 +\S+ +ViewContent +Segment spec event +order total$/);
    expect(lines[4]).toMatch(/^Products Searched +1 +\S+ +Search +Segment spec event +none$/);
    expect(lines).toHaveLength(7);
    expect(lines.at(-1)).toBe(`To send one: signalbox rules put ${ws.id} "Product Viewed"`);
  });
});
