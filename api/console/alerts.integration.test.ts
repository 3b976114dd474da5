import { lookup } from 'node:dns/promises';
import type { FastifyInstance } from 'fastify';
import type { HostLookup } from '../../notify/webhook-target';
import { savedAlertSettingsView } from '../../contract/alert-views';
import { declared } from '../../test/helpers/declared-answer';
import { buildTestApp } from '../../test/helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { asPerson, createWorkspace, personIn, type Person } from '../../test/helpers/console-client';

let testDb: TestDatabase;
let app: FastifyInstance;
let fernShop: string;
let editor: Person;
let viewer: Person;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = buildTestApp(testDb.db, { alertWebhooks: { internalAddresses: 'refuse', lookup: resolver } }).app;
  fernShop = await createWorkspace(app, 'Fern shop');
  await personIn(app, fernShop, 'owner@fern.example', 'owner');
  editor = await personIn(app, fernShop, 'editor@fern.example', 'editor');
  viewer = await personIn(app, fernShop, 'viewer@fern.example', 'viewer');
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

/** Issue 43's addresses, which the hand list let through, each with a name that resolves to it. */
const ISSUE_43: Record<string, string> = {
  'nat64.attacker.example': '64:ff9b::a9fe:a9fe',
  'compatible.attacker.example': '::7f00:1',
  'translated.attacker.example': '::ffff:0:7f00:1',
  'benchmark.attacker.example': '198.18.0.1',
  'documentation.attacker.example': '192.0.2.1',
};

/**
 * This machine has no DNS: these names answer as a resolver would (`.invalid` names never exist, RFC 6761), others
 * (localhost) go to the system's. The public address is example.com's (IANA's).
 */
const resolver: HostLookup = async (hostname) => {
  const answers: Record<string, string> = { 'hooks.slack.example': '93.184.215.14', 'metadata.attacker.example': '169.254.169.254', ...ISSUE_43 };
  const address = answers[hostname];
  if (hostname.endsWith('.invalid')) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return address === undefined ? lookup(hostname, { all: true }) : [{ address }];
};

const settings = { onReauthorization: true, failedSharePercent: 25, silenceMinutes: 120, emailEnabled: true, emailRecipients: ['Ops@Fern.example'], webhookUrl: 'https://hooks.slack.example/services/T0/B0/secretpart1234' };

describe('/console/api/workspaces/:id/alerts', () => {
  it('shows the defaults and the owners who get mail when no address is given', async () => {
    const answer = await asPerson(app, viewer)('GET', `workspaces/${fernShop}/alerts`);
    expect(answer.statusCode).toBe(200);
    expect(declared('GET', '/console/api/workspaces/:workspaceId/alerts', 200).parse(answer.json())).toEqual({
      settings: { onReauthorization: true, failedSharePercent: null, silenceMinutes: null, emailEnabled: false, emailRecipients: [], webhook: null },
      owners: ['owner@fern.example'],
      incidents: [],
    });
  });

  it('names each refused field', async () => {
    const answer = await asPerson(app, editor)('PUT', `workspaces/${fernShop}/alerts`, { ...settings, failedSharePercent: 0, silenceMinutes: 2, emailRecipients: ['not-an-address'], webhookUrl: 'http://hooks.slack.example/x' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().issues).toEqual([
      'failedSharePercent must be a whole percent from 1 to 100, or null to turn this alert off',
      'silenceMinutes must be a whole number of minutes from 5 to 10080 (7 days), or null to turn this alert off',
      'emailRecipients[0] must be an email address, e.g. jo@shop.example',
      'webhookUrl must be an https:// URL (http:// only for this machine), e.g. a Slack incoming webhook, or null to remove it',
    ]);
  });

  it.each([
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data/', 'webhookUrl must reach a public address: 169.254.169.254 is a link-local address, where clouds serve instance metadata, which this server does not call'],
    ['this machine', 'http://127.0.0.1:8080/hook', 'webhookUrl must reach a public address: 127.0.0.1 is a loopback address, which this server does not call'],
    ['a name for this machine', 'http://localhost:8080/hook', expect.stringMatching(/^webhookUrl must reach a public address: localhost is at (127\.0\.0\.1|::1), a loopback address, which this server does not call$/)],
    ['a name for cloud metadata', 'https://metadata.attacker.example/x', 'webhookUrl must reach a public address: metadata.attacker.example is at 169.254.169.254, a link-local address, where clouds serve instance metadata, which this server does not call'],
    ['a name that does not exist', 'https://nowhere.invalid/x', 'webhookUrl must name a host that exists: nowhere.invalid has no address (ENOTFOUND)'],
  ])('refuses a webhook on %s when it is saved, naming the field and the reason, and saves nothing', async (_case, webhookUrl, issue) => {
    const answer = await asPerson(app, editor)('PUT', `workspaces/${fernShop}/alerts`, { ...settings, webhookUrl });
    expect([answer.statusCode, answer.json().issues]).toEqual([400, [issue]]);
    expect((await asPerson(app, viewer)('GET', `workspaces/${fernShop}/alerts`)).json().settings).toMatchObject({ emailEnabled: false, webhook: null });
  });

  it.each(Object.entries(ISSUE_43))('refuses %s and the address it resolves to, %s, when saved', async (name, address) => {
    const literal = address.includes(':') ? `[${address}]` : address;
    for (const [webhookUrl, where] of [[`https://${literal}/hook`, `${address} is`], [`https://${name}/hook`, `${name} is at ${address},`]] as const) {
      const answer = await asPerson(app, editor)('PUT', `workspaces/${fernShop}/alerts`, { ...settings, webhookUrl });
      expect(answer.statusCode).toBe(400);
      expect(answer.json().issues).toEqual([expect.stringMatching(new RegExp(`^webhookUrl must reach a public address: ${where.replace(/\./g, '\\.')} .+, which this server does not call$`))]);
    }
    expect((await asPerson(app, viewer)('GET', `workspaces/${fernShop}/alerts`)).json().settings).toMatchObject({ emailEnabled: false, webhook: null });
  });

  it('refuses a viewer, and a write without the CSRF token', async () => {
    const byViewer = await asPerson(app, viewer)('PUT', `workspaces/${fernShop}/alerts`, settings);
    expect([byViewer.statusCode, byViewer.json().message]).toEqual([403, 'your role (viewer) cannot do this: it needs an editor or owner']);
    const withoutToken = await asPerson(app, editor)('PUT', `workspaces/${fernShop}/alerts`, settings, { 'x-csrf-token': '' });
    expect(withoutToken.statusCode).toBe(403);
    expect((await asPerson(app, viewer)('GET', `workspaces/${fernShop}/alerts`)).json().settings.emailEnabled).toBe(false);
  });

  it('saves them, shows the webhook only by its host and last characters, keeps it when left out, and logs the change in words', async () => {
    const saved = await asPerson(app, editor)('PUT', `workspaces/${fernShop}/alerts`, settings);
    expect(saved.statusCode).toBe(200);
    expect(savedAlertSettingsView.parse(saved.json()).settings).toEqual({ onReauthorization: true, failedSharePercent: 25, silenceMinutes: 120, emailEnabled: true, emailRecipients: ['ops@fern.example'], webhook: 'https://hooks.slack.example/…1234' });
    expect(saved.body).not.toContain('secretpart');

    const { webhookUrl: _kept, ...withoutWebhook } = settings;
    const again = await asPerson(app, editor)('PUT', `workspaces/${fernShop}/alerts`, { ...withoutWebhook, silenceMinutes: null });
    expect(again.json().settings).toMatchObject({ silenceMinutes: null, webhook: 'https://hooks.slack.example/…1234' });

    const log = (await asPerson(app, viewer)('GET', `workspaces/${fernShop}/change-log?limit=2`)).json();
    expect(log.entries[1]).toMatchObject({
      summary: 'Changed the alerts',
      changes: expect.arrayContaining([
        { field: 'Alert at this share of failed deliveries (%)', before: '–', after: '25' },
        { field: 'Alert emails go to', before: 'none', after: 'ops@fern.example' },
        { field: 'Alert webhook', before: '–', after: 'https://hooks.slack.example/…1234' },
      ]),
    });
    expect(JSON.stringify(log)).not.toContain('secretpart');
    const removed = await asPerson(app, editor)('PUT', `workspaces/${fernShop}/alerts`, { ...settings, webhookUrl: null });
    expect(removed.json().settings.webhook).toBeNull();
  });
});
