import type { FastifyInstance } from 'fastify';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { buildTestApp } from '../../test/helpers/test-app';
import { asPerson, createWorkspace, personIn } from '../../test/helpers/console-client';

let testDb: TestDatabase;
let app: FastifyInstance;
let workspaceId: string;
let owner: ReturnType<typeof asPerson>;
let editor: ReturnType<typeof asPerson>;
let viewer: ReturnType<typeof asPerson>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = buildTestApp(testDb.db).app;
  workspaceId = await createWorkspace(app, 'Fern shop');
  owner = asPerson(app, await personIn(app, workspaceId, 'owner@fern.example', 'owner'));
  editor = asPerson(app, await personIn(app, workspaceId, 'editor@fern.example', 'editor'));
  viewer = asPerson(app, await personIn(app, workspaceId, 'viewer@fern.example', 'viewer'));
});
afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

const latestEntry = async (person: ReturnType<typeof asPerson>, workspace: string) => (await person('GET', `workspaces/${workspace}/change-log?limit=1`)).json().entries[0];

describe('a workspace renamed and another created from the console', () => {
  it('lets only an owner rename the workspace, names a bad name\'s field, and logs the rename', async () => {
    expect((await editor('PATCH', `workspaces/${workspaceId}`, { name: 'Editor shop' })).statusCode).toBe(403);
    const empty = await owner('PATCH', `workspaces/${workspaceId}`, { name: '  ' });
    expect([empty.statusCode, empty.json().issues]).toEqual([400, ['name must not be empty']]);
    const renamed = await owner('PATCH', `workspaces/${workspaceId}`, { name: 'Fern & Moss' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().workspace).toMatchObject({ id: workspaceId, name: 'Fern & Moss' });
    expect((await viewer('GET', `workspaces/${workspaceId}`)).json().workspace.name).toBe('Fern & Moss');
    expect(await latestEntry(viewer, workspaceId)).toMatchObject({ action: 'workspace.rename', summary: 'Renamed the workspace from “Fern shop” to “Fern & Moss”', actorName: 'owner@fern.example' });
  });

  it('lets anyone signed in create another workspace, which they own and find in their session', async () => {
    const created = await viewer('POST', 'workspaces', { name: 'Viewer’s own shop' });
    expect(created.statusCode).toBe(201);
    const { id, name } = created.json().workspace;
    expect(name).toBe('Viewer’s own shop');
    const session = (await viewer('GET', 'session')).json();
    expect(session.workspaces).toEqual(expect.arrayContaining([{ workspaceId: id, workspaceName: 'Viewer’s own shop', role: 'owner' }, { workspaceId, workspaceName: 'Fern & Moss', role: 'viewer' }]));
    expect(await latestEntry(viewer, id)).toMatchObject({ action: 'workspace.create', summary: 'Created the workspace “Viewer’s own shop”' });
    expect((await editor('GET', `workspaces/${id}`)).statusCode).toBe(404);
    const nameless = await viewer('POST', 'workspaces', {});
    expect([nameless.statusCode, nameless.json().issues]).toEqual([400, ['name is required']]);
  });
});
