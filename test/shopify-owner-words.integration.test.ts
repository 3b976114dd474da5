import type { FastifyInstance } from 'fastify';
import { LosslessNumber } from 'lossless-json';
import { shopifyDelivery, shopifyFixture, type ShopifyDeliveryRequest } from '../devstack/shopify-fake';
import type { Workspace } from '../db/repositories/workspaces';
import { closeAll } from './helpers/close-all';
import { asPerson, personIn } from './helpers/console-client';
import { ttclid } from './helpers/messages';
import { TestPipeline } from './helpers/pipeline';
import { buildTestApp, TEST_ADMIN_TOKEN } from './helpers/test-app';

/**
 * Issue 46's words for a shop owner, through the webhook route and the console API: one order's orders/create and
 * orders/paid are normal traffic, not a repeated order ID (a real repeat still is); a source's last refusal is the
 * last; a refused delivery names its source; an order is found by the number the shop shows, with where its click came
 * from. The pages themselves are in test/console-shopify-words.integration.test.ts.
 */
const SHOP_KEY = 'f00dcafe5eedf00dcafe5eedf00dcafe5eedf00dcafe5eedf00dcafe5eedf00d';

jest.setTimeout(120_000);

let pipeline: TestPipeline;
let app: FastifyInstance;
let workspace: Workspace;
let source: { id: string; path: string };
let owner: ReturnType<typeof asPerson>;
let orderNumber = 6_000_000_000_000 + (Date.now() % 1_000_000_000);

beforeAll(async () => {
  pipeline = await TestPipeline.start();
  ({ app } = buildTestApp(pipeline.database.db, { repos: pipeline.repos, recordBatch: pipeline.recordBatch, startConversions: pipeline.startConversions }));
  workspace = await pipeline.workspace({ rules: [{ sourceEvent: 'Order Completed', tiktokEvent: 'CompletePayment', valueSource: 'order_total' }] });
  const created = await app.inject({
    method: 'POST',
    url: `/admin/workspaces/${workspace.id}/sources`,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    payload: { type: 'shopify', name: 'Fern shop', signingSecret: SHOP_KEY },
  });
  const { id, webhookUrl } = created.json() as { id: string; webhookUrl: string };
  source = { id, path: new URL(webhookUrl).pathname };
  owner = asPerson(app, await personIn(app, workspace.id, `owner-${workspace.id}@fern.example`, 'owner'));
});

afterAll(() =>
  closeAll(
    () => app?.close(),
    () => pipeline?.close(),
  ),
);

/** The fixture's order under a new ID and number, placed now; its click is on the page its visit landed on. */
function order(name: string): Record<string, unknown> {
  orderNumber += 1;
  const placed = new Date().toISOString();
  return Object.assign(shopifyFixture('orders/create'), {
    id: new LosslessNumber(String(orderNumber)),
    name,
    created_at: placed,
    processed_at: placed,
    updated_at: placed,
    note_attributes: [],
    landing_site: `/products/fern?utm_source=tiktok&ttclid=${ttclid()}`,
  });
}

async function post(delivery: ShopifyDeliveryRequest) {
  const response = await app.inject({ method: 'POST', url: source.path, headers: delivery.headers, payload: delivery.body });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

async function until<T>(what: string, find: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

const consoleGet = (path: string) => owner('GET', `workspaces/${workspace.id}/${path}`);

/** Diagnostics of today's conversions: the repeated ones of CompletePayment. */
async function repeatedToday(): Promise<{ repeated: number; repeats: number }> {
  const from = new Date(Date.now() - 86_400_000);
  const [figures] = (await pipeline.repos.diagnostics.diagnose(workspace.id, { from, to: new Date(Date.now() + 60_000) })).events.filter((e) => e.tiktokEvent === 'CompletePayment');
  return { repeated: figures?.repeated ?? 0, repeats: figures?.repeats ?? 0 };
}

describe("one Shopify order's topics are normal traffic", () => {
  it('folds orders/paid (and its retry) into the order’s conversion without calling it a repeated order ID', async () => {
    const placed = order('#9074');
    expect((await post(shopifyDelivery('orders/create', placed, SHOP_KEY))).status).toBe(200);
    const paid = shopifyDelivery('orders/paid', placed, SHOP_KEY);
    expect(await post(paid)).toEqual({ status: 200, body: { success: true, duplicates: { messages: 0, conversions: 1 } } });
    expect(await post(paid)).toEqual({ status: 200, body: { success: true, duplicates: { messages: 1, conversions: 0 } } });

    const conversions = await pipeline.database.db('conversions').where({ workspace_id: workspace.id, event_id: String(placed.id) });
    expect(conversions).toHaveLength(1);
    expect(await repeatedToday()).toEqual({ repeated: 0, repeats: 0 });
    const detail = (await consoleGet(`conversions/${conversions[0].id}`)).json();
    expect(detail).toMatchObject({ repeatedBy: [], repeatedHelp: null, orderName: '#9074' });
    const listed = (await consoleGet('conversions?repeated=true&limit=50')).json();
    expect(listed.conversions).toEqual([]);

    const debuggerBatch = (await consoleGet('debugger')).json();
    const paidEvent = debuggerBatch.events.find((e: { message: { context: { source?: { topic?: string } } } }) => e.message.context.source?.topic === 'orders/paid');
    expect(paidEvent.outcome).toMatchObject({ kind: 'duplicate', text: expect.stringMatching(/^The same order again: Shopify sends an order when it is placed and again when it is paid\./) });
  });

  it('still flags distinct orders that share an order ID', async () => {
    const [first] = await pipeline.ingest(workspace, [
      { type: 'track', messageId: `shared-a-${orderNumber}`, event: 'Order Completed', userId: 'u-1', properties: { order_id: `SHARED-${orderNumber}`, total: 10, currency: 'USD' } },
    ]);
    await pipeline.ingest(workspace, [{ type: 'track', messageId: `shared-b-${orderNumber}`, event: 'Order Completed', userId: 'u-2', properties: { order_id: `SHARED-${orderNumber}`, total: 12, currency: 'USD' } }]);
    expect(await repeatedToday()).toEqual({ repeated: 1, repeats: 1 });
    const detail = (await consoleGet(`conversions/${first?.id}`)).json();
    expect(detail.repeatedBy).toEqual([expect.objectContaining({ messageId: `shared-b-${orderNumber}` })]);
    expect(detail.repeatedHelp).toMatchObject({ label: 'Repeated order ID or event ID' });
    expect((await consoleGet('conversions?repeated=true&limit=50')).json().conversions.map((c: { id: string }) => c.id)).toEqual([first?.id]);
  });
});

describe('an order by the number the shop shows', () => {
  it('is found by #9075 and 9075, shows that number, and says its click came from the page its visit landed on', async () => {
    const placed = order('#9075');
    expect((await post(shopifyDelivery('orders/create', placed, SHOP_KEY))).status).toBe(200);
    for (const q of ['#9075', '9075']) {
      const found = (await consoleGet(`conversions?q=${encodeURIComponent(q)}&limit=50`)).json().conversions;
      expect(found.map((c: { eventId: string; orderName: string }) => [c.eventId, c.orderName])).toEqual([[String(placed.id), '#9075']]);
    }
    const [row] = await pipeline.database.db('conversions').where({ workspace_id: workspace.id, event_id: String(placed.id) });
    await pipeline.settled(row);
    expect((await consoleGet(`conversions/${row.id}`)).json()).toMatchObject({ orderName: '#9075', clickFromLandingPage: true, click: { source: 'message' } });
    expect((await consoleGet(`conversions/${row.id}`)).json()).not.toHaveProperty('workflowUrl');
  });
});

describe("a source's refusals", () => {
  it('shows the last of three refusals in a row on the source, and names the source in the debugger', async () => {
    const body = JSON.stringify(order('#9076'));
    const headers = { 'content-type': 'application/json', 'x-shopify-topic': 'orders/create' };
    for (const hmac of [undefined, 'not base64 at all', Buffer.alloc(32).toString('base64')]) {
      const refused = await app.inject({ method: 'POST', url: source.path, headers: hmac === undefined ? headers : { ...headers, 'x-shopify-hmac-sha256': hmac }, payload: body });
      expect(refused.statusCode).toBe(401);
    }
    const last = await until('the third refusal on the source', async () => {
      const listed = (await consoleGet('sources')).json().sources.find((s: { id: string }) => s.id === source.id);
      return listed.lastRefusal?.message.startsWith('X-Shopify-Hmac-Sha256 does not match') ? listed.lastRefusal : undefined;
    });
    expect(last).toMatchObject({ status: 401 });

    const refusals = await until('the three refusals in the debugger', async () => {
      const listed = (await consoleGet('debugger')).json().refusals.filter((r: { path: string }) => r.path === source.path);
      return listed.length === 3 ? listed : undefined;
    });
    for (const refusal of refusals) {
      expect(refusal.source).toEqual({ name: 'Fern shop', type: 'shopify' });
      expect(refusal.words).toMatchObject({ title: 'Refused: a delivery to Fern shop that was not signed with its key', link: { page: 'sources#webhooks', label: 'Sources: Shopify and webhooks' } });
    }
  });
});

describe('the rule a Shopify shop needs', () => {
  it('is named on the source and on the Rules page until it is in place, and a refund gets a warning', async () => {
    const other = await pipeline.workspace();
    const person = asPerson(app, await personIn(app, other.id, `owner-${other.id}@fern.example`, 'owner'));
    const made = await person('POST', `workspaces/${other.id}/sources`, { type: 'shopify', name: 'Moss shop', signingSecret: SHOP_KEY });
    expect(made.json()).toMatchObject({ neededRule: { event: 'Order Completed', tiktokEvent: 'CompletePayment' } });
    expect((await person('GET', `workspaces/${other.id}/rules`)).json().neededRules).toEqual([{ event: 'Order Completed', tiktokEvent: 'CompletePayment', source: 'Moss shop' }]);
    expect((await person('PUT', `workspaces/${other.id}/rules/${encodeURIComponent('Order Refunded')}`, {})).statusCode).toBe(200);
    const rules = (await person('GET', `workspaces/${other.id}/rules`)).json();
    expect(rules.rules.find((r: { event: string }) => r.event === 'Order Refunded').warning).toMatch(/^This is a refund: a rule would send every refund to TikTok as a conversion/);
    expect((await person('PUT', `workspaces/${other.id}/rules/${encodeURIComponent('Order Completed')}`, {})).statusCode).toBe(200);
    expect((await person('GET', `workspaces/${other.id}/rules`)).json().neededRules).toEqual([]);
  });
});
