import { createTestDatabase, type TestDatabase } from '../../test/helpers/database';
import { createSecretBox } from '../secret-box';
import { createRepositories, type Repositories } from './index';
import { isStoredBefore, type NewEvent, type Profiles } from './ingest-writes';

let testDb: TestDatabase;
let repos: Repositories;

beforeAll(async () => {
  testDb = await createTestDatabase();
  repos = createRepositories(testDb.db, createSecretBox('11'.repeat(32)));
});
afterAll(() => testDb.destroy());

/** Whether storeUnmapped's statement (its text begins with the rules) is waiting for a lock held by another session. */
async function storeUnmappedWaits(): Promise<boolean> {
  const { rows } = await testDb.db.raw<{ rows: { waiting: boolean }[] }>(
    "SELECT EXISTS (SELECT FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%WITH rules AS%') AS waiting",
  );
  return rows[0]?.waiting === true;
}

const storeEvents = (workspaceId: string, events: NewEvent[]) => repos.ingestWrites.transaction((trx) => trx.storeEvents(workspaceId, events, []));
const recordProfiles = (workspaceId: string, profiles: Profiles) => repos.ingestWrites.transaction((trx) => trx.recordProfiles(workspaceId, profiles));

describe('events', () => {
  it('stores a repeated messageId once and reports only new rows', async () => {
    const ws = await repos.workspaces.create('Shop');
    const event = { messageId: 'm-1', type: 'track', eventName: 'purchase', userId: 'u1', anonymousId: null, occurredAt: new Date(), messageJson: '{"a":1}' };
    const first = await storeEvents(ws.id, [event, { ...event, messageId: 'm-2' }]);
    const second = await storeEvents(ws.id, [event, { ...event, messageId: 'm-3' }]);
    expect([...first.rowIds.keys()].sort()).toEqual(['m-1', 'm-2']);
    expect([...second.rowIds.keys()]).toEqual(['m-3']);
    expect(await repos.events.count(ws.id)).toBe(3);
    expect((await testDb.db('events').where({ message_id: 'm-3' }).first())?.message).toEqual({ a: 1 });
  });

  it('refuses a group of events expected new when one of them was stored before, and stores none of it', async () => {
    const ws = await repos.workspaces.create('Shop');
    const event = { messageId: 'm-1', type: 'page', eventName: null, userId: null, anonymousId: 'a1', occurredAt: new Date(), messageJson: '{}' };
    const storeNew = (events: NewEvent[]) => repos.ingestWrites.storeUnmapped(ws.id, events, { sightings: [], links: [] }, []);
    await storeNew([event]);
    const refused = await storeNew([{ ...event, messageId: 'm-2' }, event]).catch((error: unknown) => error);
    expect(isStoredBefore(refused)).toBe(true);
    expect(await repos.events.count(ws.id)).toBe(1);
  });

  it('waits for a statement storing the same messageId at that moment: refused if it commits, stored if it rolls back', async () => {
    const ws = await repos.workspaces.create('Shop');
    const event = { messageId: 'm-1', type: 'page', eventName: null, userId: null, anonymousId: 'a1', occurredAt: new Date(), messageJson: '{}' };
    const storeNew = () => repos.ingestWrites.storeUnmapped(ws.id, [event], { sightings: [], links: [] }, []);
    for (const end of ['commit', 'rollback'] as const) {
      const other = await testDb.db.transaction();
      await other.raw("INSERT INTO events (workspace_id, message_id, type, occurred_at, message) VALUES (?, 'm-1', 'page', now(), '{}')", [ws.id]);
      const outcome = storeNew().then(() => 'stored', (error: unknown) => (isStoredBefore(error) ? 'refused' : error));
      while (!(await storeUnmappedWaits())) await new Promise((resolve) => setTimeout(resolve, 20));
      await other[end]();
      expect(await outcome).toBe(end === 'commit' ? 'refused' : 'stored');
      expect(await repos.events.count(ws.id)).toBe(1);
      if (end === 'commit') await testDb.db('events').where({ workspace_id: ws.id }).delete();
    }
  });

  it('skips, without refusing the group, an event whose messageId was stored the UTC day before (the window is at least 24 hours)', async () => {
    const ws = await repos.workspaces.create('Shop');
    const event = { messageId: 'm-1', type: 'page', eventName: null, userId: null, anonymousId: 'a1', occurredAt: new Date(), messageJson: '{}' };
    await testDb.db.raw(
      `INSERT INTO events (workspace_id, message_id, type, occurred_at, received_at, received_on, message)
       VALUES (?, 'm-1', 'page', now(), now() - interval '1 day', (now() AT TIME ZONE 'UTC')::date - 1, '{}')`,
      [ws.id],
    );
    const fast = await repos.ingestWrites.storeUnmapped(ws.id, [event, { ...event, messageId: 'm-2' }], { sightings: [], links: [] }, []);
    expect([...fast.storedBefore]).toEqual(['m-1']);
    const slow = await storeEvents(ws.id, [event, { ...event, messageId: 'm-3' }]);
    expect([...slow.rowIds.keys()]).toEqual(['m-3']);
    expect(await testDb.db('events').where({ workspace_id: ws.id }).orderBy('message_id').pluck('message_id')).toEqual(['m-1', 'm-2', 'm-3']);
  });

  it('stores a group of events no rule maps with its profiles, and nothing of one that a rule maps, returning the rule', async () => {
    const ws = await repos.workspaces.create('Shop');
    await repos.conversionRules.put(ws.id, { sourceEvent: 'purchase', tiktokEvent: 'CompletePayment', valueSource: 'order_total', fixedValue: null, currency: null });
    const track = (messageId: string, eventName: string) => ({ messageId, type: 'track', eventName, userId: 'u1', anonymousId: 'a1', occurredAt: new Date(), messageJson: '{}' });
    const profiles = { sightings: [{ anonymousId: 'a1', seenAt: new Date() }], links: [{ from: { kind: 'user_id' as const, value: 'u1' }, to: { kind: 'anonymous_id' as const, value: 'a1' } }] };

    const mapped = await repos.ingestWrites.storeUnmapped(ws.id, [track('m-1', 'viewed'), track('m-2', 'purchase')], profiles, ['viewed', 'purchase']);
    expect([...mapped.rules.values()]).toEqual([expect.objectContaining({ sourceEvent: 'purchase', tiktokEvent: 'CompletePayment' })]);
    expect(await repos.events.count(ws.id)).toBe(0);
    expect(await repos.profiles.visitors(ws.id, ['a1'])).toEqual([]);

    expect((await repos.ingestWrites.storeUnmapped(ws.id, [track('m-1', 'viewed')], profiles, ['viewed'])).rules.size).toBe(0);
    expect(await repos.events.count(ws.id)).toBe(1);
    expect(await repos.profiles.visitors(ws.id, ['a1'])).toHaveLength(1);
    expect(await repos.profiles.reachable(ws.id, [{ kind: 'anonymous_id', value: 'a1' }], 'user_id')).toEqual(['u1']);
  });
});

describe('profiles', () => {
  it('keeps the latest ttclid per visitor and every click, whatever the arrival order', async () => {
    const ws = await repos.workspaces.create('Shop');
    const early = new Date('2026-01-01T00:00:00Z');
    const late = new Date('2026-01-05T00:00:00Z');
    await recordProfiles(ws.id, { sightings: [{ anonymousId: 'a1', seenAt: late, ttclid: 'E.C.P.late', ttp: 'ttp-late' }], links: [] });
    await recordProfiles(ws.id, { sightings: [{ anonymousId: 'a1', seenAt: early, ttclid: 'E.C.P.early', ttp: 'ttp-early' }], links: [] });
    const [visitor] = await repos.profiles.visitors(ws.id, ['a1']);
    expect(visitor).toMatchObject({ ttclid: 'E.C.P.late', ttp: 'ttp-late', first_seen_at: early, last_seen_at: late });
    const clicks = await repos.profiles.recentClicks(ws.id, ['a1'], new Date('2026-02-01T00:00:00Z'));
    expect(clicks.map((c) => c.ttclid)).toEqual(['E.C.P.late', 'E.C.P.early']);
  });

  it('walks identity links across devices: desktop visitor → user → email → phone visitor', async () => {
    const ws = await repos.workspaces.create('Shop');
    const email = { kind: 'email_sha256' as const, value: 'e'.repeat(64) };
    await recordProfiles(ws.id, {
      sightings: [],
      links: [
        { from: { kind: 'user_id', value: 'u1' }, to: { kind: 'anonymous_id', value: 'desktop' } },
        { from: { kind: 'user_id', value: 'u1' }, to: email },
        { from: { kind: 'anonymous_id', value: 'phone' }, to: email },
        { from: { kind: 'anonymous_id', value: 'stranger' }, to: { kind: 'email_sha256', value: 'f'.repeat(64) } },
      ],
    });
    const linked = await repos.profiles.reachable(ws.id, [{ kind: 'anonymous_id', value: 'desktop' }], 'anonymous_id');
    expect(linked.sort()).toEqual(['desktop', 'phone']);
  });
});

describe('api keys', () => {
  it('finds a key by its plaintext, stores only a hash, and stops finding it once revoked', async () => {
    const ws = await repos.workspaces.create('Shop');
    const created = await repos.apiKeys.create(ws.id, 'backend');
    expect(created.key).toMatch(/^dk_[A-Za-z0-9_-]{32}$/);
    const stored = await testDb.db('api_keys').where({ id: created.id }).first();
    expect(JSON.stringify(stored)).not.toContain(created.key);
    expect((await repos.apiKeys.findActive(created.key))?.workspaceId).toBe(ws.id);
    await repos.apiKeys.revoke(ws.id, created.id);
    expect(await repos.apiKeys.findActive(created.key)).toBeUndefined();
  });

  it('makes browser keys with their own prefix, and the schema knows no other kind', async () => {
    const ws = await repos.workspaces.create('Shop');
    const browser = await repos.apiKeys.create(ws.id, 'website', 'browser');
    expect(browser.key).toMatch(/^pk_[A-Za-z0-9_-]{32}$/);
    expect(await repos.apiKeys.findActive(browser.key)).toMatchObject({ kind: 'browser', displayPrefix: browser.key.slice(0, 9) });
    await expect(testDb.db('api_keys').insert({ id: 'key_x', workspace_id: ws.id, name: 'x', kind: 'public' as never, key_hash: 'h', display_prefix: 'x' })).rejects.toThrow(
      /api_key_kind/,
    );
  });
});

describe('workspaces', () => {
  it('keeps allowed origins, and tells whether any workspace allows an origin', async () => {
    const ws = await repos.workspaces.create('Shop');
    expect(ws.allowedOrigins).toEqual([]);
    expect(await repos.workspaces.anyAllowsOrigin('https://tea.example')).toBe(false);
    const updated = await repos.workspaces.updateSettings(ws.id, { allowedOrigins: ['https://tea.example', 'http://localhost:3000'] });
    expect(updated?.allowedOrigins).toEqual(['https://tea.example', 'http://localhost:3000']);
    expect(await repos.workspaces.anyAllowsOrigin('https://tea.example')).toBe(true);
    expect(await repos.workspaces.anyAllowsOrigin('https://tea.example.evil')).toBe(false);
  });
});

describe('tiktok connections', () => {
  it('stores the access token encrypted and opens it again', async () => {
    const ws = await repos.workspaces.create('Shop');
    await repos.tiktokConnections.put(ws.id, { accessToken: 'secret-token-123', advertiserId: '7000000000000001', pixelCode: 'CPIXEL0000000000000A' });
    const stored = await testDb.db('tiktok_connections').where({ workspace_id: ws.id }).first();
    expect(stored?.access_token_ciphertext).not.toContain('secret-token-123');
    expect((await repos.tiktokConnections.withToken(ws.id))?.accessToken).toBe('secret-token-123');
  });
});

describe('change log', () => {
  it('lists a workspace’s entries newest first, pages by ID, and never another workspace’s', async () => {
    const ws = await repos.workspaces.create('Shop');
    const other = await repos.workspaces.create('Other shop');
    await repos.changeLog.record({ workspaceId: ws.id, actor: 'operator', action: 'rule.put', target: 'purchase', after: { tiktokEvent: 'CompletePayment' } });
    await repos.changeLog.record({ workspaceId: ws.id, actor: 'user:u-1', action: 'rule.delete', target: 'purchase', before: { tiktokEvent: 'CompletePayment' } });
    await repos.changeLog.record({ workspaceId: other.id, actor: 'operator', action: 'settings.update' });

    const entries = await repos.changeLog.list(ws.id, { limit: 10 });
    expect(entries.map((e) => [e.actor, e.action, e.target])).toEqual([
      ['user:u-1', 'rule.delete', 'purchase'],
      ['operator', 'rule.put', 'purchase'],
    ]);
    expect(entries[1]).toMatchObject({ before: null, after: { tiktokEvent: 'CompletePayment' } });
    const older = await repos.changeLog.list(ws.id, { limit: 10, beforeId: entries[0].id });
    expect(older.map((e) => e.action)).toEqual(['rule.put']);
  });
});
