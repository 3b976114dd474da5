import type { FastifyInstance } from 'fastify';
import type { MailSink } from '../../devstack/mail-sink';
import type { Repositories } from '../../db/repositories';
import { createMailer } from '../../notify/mailer';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { adminCall, asPerson, createWorkspace, personIn } from '../../test/helpers/console-client';
import { startTestMailSink } from '../../test/helpers/mail-sink';
import { buildTestApp } from '../../test/helpers/test-app';

let testDb: TestDatabase;
let sink: MailSink;
let app: FastifyInstance;
let repos: Repositories;
let workspaceId: string;
let owner: ReturnType<typeof asPerson>;

const HEADER_INJECTION = 'Shop\r\nBcc: victim@elsewhere.example';
const REFUSED = 'name must not contain line breaks, tabs or other control characters';

beforeAll(async () => {
  testDb = await createTestDatabase();
  sink = await startTestMailSink();
  ({ app, repos } = buildTestApp(testDb.db, { mailer: createMailer({ smtpUrl: sink.url, from: 'Signalbox <signalbox@test.example>' }) }));
  workspaceId = await createWorkspace(app, 'Fern shop');
  owner = asPerson(app, await personIn(app, workspaceId, 'owner@fern.example', 'owner'));
});
afterAll(async () => {
  await app?.close();
  await sink?.close();
  await testDb?.destroy();
});

describe('names with line breaks or other control characters', () => {
  it('are refused with a 400 naming the field, whichever face creates or renames the workspace, and nothing is stored', async () => {
    const answers = [
      await owner('POST', 'workspaces', { name: HEADER_INJECTION }),
      await owner('PATCH', `workspaces/${workspaceId}`, { name: 'Fern\u2028shop' }),
      await adminCall(app, 'POST', '/admin/workspaces', { name: HEADER_INJECTION }),
    ];
    for (const answer of answers) expect([answer.statusCode, answer.json()]).toEqual([400, { error: 'invalid_request', message: REFUSED, issues: [REFUSED] }]);
    const names = (await testDb.db('workspaces').select('name')).map((row: { name: string }) => row.name);
    expect(names).toEqual(['Fern shop']);
  });

  it('are refused for keys, webhook sources and rules too', async () => {
    const workspace = `workspaces/${workspaceId}`;
    const key = await owner('POST', `${workspace}/api-keys`, { name: 'backend\tkey' });
    const source = await owner('POST', `${workspace}/sources`, { type: 'shopify', name: 'Shop\u202Eyfipohs' });
    const rule = await owner('PUT', `${workspace}/rules/purchase`, { tiktokEvent: 'CompletePayment\n' + 'X' });
    expect([key, source, rule].map((answer) => [answer.statusCode, answer.json().issues])).toEqual([
      [400, [REFUSED]],
      [400, [REFUSED]],
      [400, ['tiktokEvent must not contain line breaks, tabs or other control characters']],
    ]);
  });

  it('stored before the rule, go into an invitation mail on one line: no header, no paragraph of their own', async () => {
    const older = await repos.workspaces.create(HEADER_INJECTION);
    const olderOwner = asPerson(app, await personIn(app, older.id, 'first@fern.example', 'owner'));
    expect((await olderOwner('POST', `workspaces/${older.id}/invitations`, { email: 'invited@fern.example', role: 'viewer' })).statusCode).toBe(201);
    const mail = await sink.waitFor((m) => m.to.includes('invited@fern.example'));
    expect(mail.to).toEqual(['invited@fern.example']);
    expect(mail.subject).toBe('first@fern.example invites you to Shop Bcc: victim@elsewhere.example on Signalbox');
    expect(mail.text.split('\n')[0]).toBe('first@fern.example invites you to the Signalbox workspace "Shop Bcc: victim@elsewhere.example" as viewer.');
    expect(sink.messages().some((m) => m.to.includes('victim@elsewhere.example'))).toBe(false);
  });
});
