import type { Page } from 'playwright-core';
import { FAKE_TIKTOK_ACCESS_TOKEN, FAKE_TIKTOK_PIXEL_CODE } from '../devstack/tiktok-fake';
import type { Workspace } from '../db/repositories/workspaces';
import { startConsoleInBrowser, type ConsoleInBrowser } from './helpers/console-browser';
import { closeAll } from './helpers/close-all';
import { daysAgo, landing, track, ttclid } from './helpers/messages';
import type { TestPipeline } from './helpers/pipeline';

jest.setTimeout(180_000);

let session: ConsoleInBrowser;
let pipeline: TestPipeline;
let page: Page;

beforeAll(async () => {
  session = await startConsoleInBrowser({ artifacts: 'console-past-events' });
  ({ pipeline, page } = session);
});
afterAll(() => closeAll(() => session?.close()));

describe('send the past events of a rule, in Chromium', () => {
  it('counts the stored events a new rule maps, refuses days past the attribution window beside the field, sends them once and follows the run', async () => {
    const { repos } = pipeline;
    await repos.workspaces.updateSettings(session.workspaceId, { attributionWindowDays: 7 });
    await repos.tiktokConnections.put(session.workspaceId, { accessToken: FAKE_TIKTOK_ACCESS_TOKEN, advertiserId: null, pixelCode: FAKE_TIKTOK_PIXEL_CODE });
    const workspace = (await repos.workspaces.find(session.workspaceId)) as Workspace;
    const cart = (at: Date, eventId: string) => ({ ...track('add_to_cart', { anonymousId: 'anon-browser' }, { event_id: eventId }), timestamp: at.toISOString() });
    await pipeline.ingest(workspace, [landing('anon-browser', ttclid(), daysAgo(4)), cart(daysAgo(3), 'cart-past-1'), cart(daysAgo(2), 'cart-past-2')]);

    await session.signInAsOwner();
    await session.open('rules');
    await page.getByRole('heading', { name: 'Conversion rules', level: 1 }).waitFor();
    await page.getByLabel('Your event').fill('add_to_cart');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await session.toast('Rule saved');

    const card = page.locator('li.rule').filter({ hasText: 'add_to_cart' });
    await card.getByText('Send past events', { exact: true }).click();
    await card.getByText("At most 7: the workspace's attribution window is 7 days.").waitFor();
    const days = card.getByLabel('Days back');
    await session.refusedThenOneClick(days, { value: '9', message: "must be at most 7, not 9: the workspace's attribution window is 7 days" }, '7', 'Count them');
    await card.getByText('2 stored events of the last 7 days would be sent as 2 conversions.').waitFor();
    await session.shots('01-rules-past-events-counted');

    await card.getByRole('button', { name: 'Send 2 conversions' }).click();
    await session.toast('Sending the past events: this page shows how far it got');
    await card.getByText(/^Past events of the last 7 days sent .*: 2 conversions made\.$/).waitFor();
    const delivered = await Promise.all(['cart-past-1', 'cart-past-2'].map((eventId) => session.settledConversion(eventId)));
    expect(delivered.map((c) => [c.tiktok_event, c.status])).toEqual([
      ['AddToCart', 'delivered'],
      ['AddToCart', 'delivered'],
    ]);

    // Counted again: each has its conversion.
    await days.fill('7');
    await card.getByRole('button', { name: 'Count them' }).click();
    await card.getByText('Nothing to send: every stored event of the last 7 days has its conversions already.').waitFor();
    await session.shots('02-rules-past-events-sent');

    await session.open('settings');
    await page.getByText('Sent the past 7 days of add_to_cart to TikTok: 2 stored events as 2 conversions').first().waitFor();
    expect(session.notFound).toEqual([]);
  });
});
