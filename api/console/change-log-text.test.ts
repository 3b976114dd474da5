import { changeSummary, fieldChanges, type LoggedChange } from './change-log-text';

const entry = (action: string, target: string | null, before: LoggedChange['before'], after: LoggedChange['after']): LoggedChange => ({ action, target, before, after });

describe('the change log in words', () => {
  it('says what a settings change did, several fields in one sentence', () => {
    expect(changeSummary(entry('settings.update', 'attributionWindowDays', { attributionWindowDays: 30 }, { attributionWindowDays: 7 }))).toBe('Changed the attribution window to 7 days');
    expect(changeSummary(entry('settings.update', 'testMode,testEventCode', { testMode: false, testEventCode: null }, { testMode: true, testEventCode: 'TEST12345' }))).toBe(
      'Turned test mode on and set the test event code to TEST12345',
    );
    expect(changeSummary(entry('settings.update', 'allowedOrigins', { allowedOrigins: ['https://a.example'] }, { allowedOrigins: [] }))).toBe('Removed every allowed origin');
  });

  it('words the TikTok pixel choice and Limited Data Use for a shop owner, never as codes', () => {
    const pixel = entry('settings.update', 'browserPixel,limitedDataUse', { browserPixel: 'off', limitedDataUse: false }, { browserPixel: 'page', limitedDataUse: true });
    expect(changeSummary(pixel)).toBe("Had Signalbox send each conversion to the TikTok pixel already on the pages and turned TikTok's Limited Data Use on");
    expect(fieldChanges(pixel)).toEqual([
      { field: 'TikTok pixel in the browser', before: 'off', after: 'the TikTok pixel already on the pages' },
      { field: 'Limited Data Use', before: 'off', after: 'on' },
    ]);
    expect(changeSummary(entry('settings.update', 'browserPixel', { browserPixel: 'off' }, { browserPixel: 'load' }))).toBe("Had Signalbox load TikTok's pixel on the pages and send it each conversion");
    expect(changeSummary(entry('settings.update', 'browserPixel', { browserPixel: 'load' }, { browserPixel: 'off' }))).toBe("Stopped sending conversions to TikTok's pixel in the browser");
  });

  it('names keys, rules and people by their names, never by their IDs', () => {
    expect(changeSummary(entry('key.create', 'key_3430d84d0040ae0d', null, { name: 'backend', kind: 'secret', displayPrefix: 'dk_abcdef', revokedAt: null }))).toBe(
      'Created API key “backend” (secret key, for servers)',
    );
    expect(changeSummary(entry('key.revoke', 'key_3430d84d0040ae0d', { name: 'web', kind: 'browser' }, { name: 'web', kind: 'browser' }))).toBe('Revoked API key “web”');
    const rule = { event: 'purchase', tiktokEvent: 'CompletePayment', value: { source: 'order_total' } };
    expect(changeSummary(entry('rule.put', 'purchase', null, rule))).toBe('Added the rule `purchase` → CompletePayment, worth the order total');
    expect(changeSummary(entry('rule.put', 'lead', rule, { event: 'lead', tiktokEvent: 'SubmitForm', value: { source: 'fixed', amount: 30, currency: 'USD' } }))).toBe(
      'Changed the rule `lead` → SubmitForm, worth 30 USD',
    );
    const serverOnly = { ...rule, serverOnly: true };
    expect(changeSummary(entry('rule.put', 'purchase', { ...rule, serverOnly: false }, serverOnly))).toBe(
      'Changed the rule `purchase` → CompletePayment, worth the order total, sent from the server only (not through the pixel in the browser)',
    );
    expect(fieldChanges(entry('rule.put', 'purchase', { ...rule, serverOnly: false }, serverOnly))).toEqual([{ field: 'Sent to TikTok from the server only', before: 'off', after: 'on' }]);
    const offline = { ...rule, destination: 'offline' };
    expect(changeSummary(entry('rule.put', 'purchase', { ...rule, destination: 'auto' }, offline))).toBe('Changed the rule `purchase` → CompletePayment, worth the order total, sent to Offline (store and phone)');
    expect(fieldChanges(entry('rule.put', 'purchase', { ...rule, destination: 'auto' }, offline))).toEqual([{ field: 'Send to', before: 'Automatic', after: 'Offline (store and phone)' }]);
    expect(changeSummary(entry('member.role', 'ed@fern.example', { role: 'viewer' }, { role: 'editor' }))).toBe('Changed the role of ed@fern.example from viewer to editor');
    expect(changeSummary(entry('tiktok.pixel', 'tiktok', { pixelCode: null }, { pixelCode: 'CIDGJS3C77U7QBTMVDP0' }))).toBe('Chose the pixel CIDGJS3C77U7QBTMVDP0');
    expect(changeSummary(entry('tiktok.stats_pull', 'tiktok', null, { advertiserId: '7000000000000000001' }))).toBe('Asked TikTok for the latest ad statistics of the advertiser 7000000000000000001');
  });

  it('says how far back and how many past events a rule sent, with the event name to copy', () => {
    const sent = entry('rule.send_past', 'add_to_cart', null, { days: 7, events: 12, conversions: 24 });
    expect(changeSummary(sent)).toBe('Sent the past 7 days of `add_to_cart` to TikTok: 12 stored events as 24 conversions');
    expect(changeSummary(entry('rule.send_past', 'lead', null, { days: 1, events: 1, conversions: 1 }))).toBe('Sent the past 1 day of `lead` to TikTok: 1 stored event as 1 conversion');
    expect(fieldChanges(sent).map((c) => c.field)).toEqual(['Days back', 'Past events to send', 'Conversions to make']);
  });

  it('names the TikTok advertiser and pixel by the names TikTok gave them, the logged one first, else the connection’s', () => {
    expect(changeSummary(entry('tiktok.pixel', 'tiktok', null, { pixelCode: 'CIDGJS3C77U7QBTMVDP0', pixelName: 'Fern web pixel' }))).toBe('Chose the pixel “Fern web pixel”');
    expect(changeSummary(entry('tiktok.advertiser', 'tiktok', null, { advertiserId: '7001', advertiserName: 'Fern Ads' }))).toBe('Chose the TikTok advertiser “Fern Ads”');
    const current = { advertiser: (id: string) => (id === '7001' ? 'Fern Ads (renamed)' : undefined), pixel: (code: string) => (code === 'CPX' ? 'Fern web pixel' : undefined) };
    expect(changeSummary(entry('tiktok.advertiser', 'tiktok', null, { advertiserId: '7001' }), current)).toBe('Chose the TikTok advertiser “Fern Ads (renamed)”');
    expect(changeSummary(entry('tiktok.pixel', 'tiktok', null, { pixelCode: 'CPX' }), current)).toBe('Chose the pixel “Fern web pixel”');
    expect(changeSummary(entry('tiktok.stats_pull', 'tiktok', null, { advertiserId: '7001' }), current)).toBe('Asked TikTok for the latest ad statistics of the advertiser “Fern Ads (renamed)”');
  });

  it('names the Offline and CRM Event Sets chosen, by ID when chosen without their names, and says when one is removed', () => {
    const chosen = entry('tiktok.offline_event_set', 'tiktok', { offlineEventSetId: null }, { offlineEventSetId: '7391846250173950001', offlineEventSetName: 'Fern stores' });
    expect(changeSummary(chosen)).toBe('Chose the Offline Event Set “Fern stores”');
    expect(fieldChanges(chosen)).toEqual([
      { field: 'Offline Event Set', before: '–', after: '7391846250173950001' },
      { field: 'Offline Event Set name', before: '–', after: 'Fern stores' },
    ]);
    expect(changeSummary(entry('tiktok.crm_event_set', 'tiktok', null, { crmEventSetId: '7391846250173960001', crmEventSetName: null }))).toBe('Chose the CRM Event Set 7391846250173960001');
    expect(changeSummary(entry('tiktok.crm_event_set', 'tiktok', { crmEventSetId: '7391846250173960001' }, { crmEventSetId: null }))).toBe('Removed the CRM Event Set');
  });

  it('names webhook sources by their names, a mapping change field by field, and never a secret', () => {
    const stripe = { name: 'Stripe', type: 'webhook', signatureHeader: 'Stripe-Signature', mapping: { event: 'type' } };
    expect(changeSummary(entry('source.create', 'src_1', null, { name: 'Fern shop', type: 'shopify', signatureHeader: null, mapping: null }))).toBe('Added the Shopify source “Fern shop”');
    expect(changeSummary(entry('source.update', 'src_2', stripe, { ...stripe, mapping: { event: '"Order Completed"' } }))).toBe('Changed the webhook source “Stripe”');
    expect(fieldChanges(entry('source.update', 'src_2', stripe, { ...stripe, mapping: { event: '"Order Completed"' } }))).toEqual([{ field: 'Mapping', before: 'event type', after: 'event "Order Completed"' }]);
    expect(changeSummary(entry('source.secret', 'src_1', null, { name: 'Fern shop', secret: 'given' }))).toBe('Gave the source “Fern shop” a new signing secret (given)');
    expect(changeSummary(entry('source.delete', 'src_2', stripe, null))).toBe('Deleted the webhook source “Stripe”');
  });

  it('says the alerts changed, each changed setting labelled', () => {
    const before = { onReauthorization: true, failedSharePercent: null, silenceMinutes: null, emailEnabled: false, emailRecipients: [], webhookUrl: null };
    const after = { ...before, failedSharePercent: 25, emailEnabled: true, webhookUrl: 'https://hooks.slack.com/…1234' };
    expect(changeSummary(entry('alerts.update', null, before, after))).toBe('Changed the alerts');
    expect(fieldChanges(entry('alerts.update', null, before, after))).toEqual([
      { field: 'Alert at this share of failed deliveries (%)', before: '–', after: '25' },
      { field: 'Alerts by email', before: 'off', after: 'on' },
      { field: 'Alert webhook', before: '–', after: 'https://hooks.slack.com/…1234' },
    ]);
  });

  it('says how a test alert went on each channel', () => {
    expect(changeSummary(entry('alerts.test', null, null, { sent: ['email', 'webhook'], notSent: [] }))).toBe('Sent a test alert by email and to the webhook');
    expect(changeSummary(entry('alerts.test', null, null, { sent: ['email'], notSent: ['webhook'] }))).toBe('Sent a test alert by email; it could not be sent to the webhook');
    expect(changeSummary(entry('alerts.test', null, null, { sent: [], notSent: ['email'] }))).toBe('Could not send a test alert by email');
  });

  it('still says something for an action it does not know', () => {
    expect(changeSummary(entry('webhook.create', 'hook_1', null, null))).toBe('Webhook create hook_1');
  });

  it('lists only the fields that changed, labelled, with readable values', () => {
    expect(fieldChanges(entry('settings.update', 'testMode', { testMode: false, attributionWindowDays: 30 }, { testMode: true, attributionWindowDays: 30 }))).toEqual([
      { field: 'Test mode', before: 'off', after: 'on' },
    ]);
    expect(fieldChanges(entry('key.create', 'key_1', null, { name: 'backend', kind: 'secret', revokedAt: null }))).toEqual([
      { field: 'Name', before: '–', after: 'backend' },
      { field: 'Kind', before: '–', after: 'secret' },
    ]);
  });

  it('says how many conversions a send-again by filter put back, with the filter in words and no search text', () => {
    const byFilter = entry('conversions.retry', null, null, { status: 'skipped', reason: 'tiktok_not_connected', searched: true, requeued: 3 });
    expect(changeSummary(byFilter)).toBe('Sent 3 conversions again by filter');
    expect(fieldChanges(byFilter)).toEqual([
      { field: 'Status', before: '–', after: 'skipped' },
      { field: 'Reason', before: '–', after: 'TikTok not connected' },
      { field: 'Searched', before: '–', after: 'on' },
      { field: 'Sent again', before: '–', after: '3' },
    ]);
    expect(changeSummary(entry('conversions.retry', null, null, { conversionIds: ['c-1'], requeued: 1 }))).toBe('Sent 1 conversion again');
  });

  it('says what an erasure removed, in words, and nothing of whom', () => {
    const erasure = entry('erasure.run', 'era_1', null, {
      identifiers: { user_id: 1, anonymous_id: 2, email_sha256: 1, phone_sha256: 0 },
      truncated: false,
      erased: { eventsDeleted: 4, eventsStripped: 1, conversionsAnonymised: 1, visitors: 2, clicks: 0, identityLinks: 6 },
    });
    expect(changeSummary(erasure)).toBe("Erased one person's data: 4 events deleted, 1 event stripped of personal data, 1 conversion anonymised, 2 visitor profiles, 6 identity links");
    expect(fieldChanges(erasure)).toContainEqual({ field: 'Visitors found', before: '–', after: '2' });
    expect(fieldChanges(erasure)).toContainEqual({ field: 'Events deleted', before: '–', after: '4' });
    expect(changeSummary(entry('erasure.run', 'era_2', null, { erased: { eventsDeleted: 0 } }))).toBe("Erased one person's data (nothing was stored about them)");
  });

  it("says what Shopify's shop/redact removed from a source, counted", () => {
    const removal = entry('source.shop_redact', 'src_1', null, {
      name: 'Fern shop',
      shop: 'fern-shop.myshopify.com',
      erased: { eventsDeleted: 3, eventsStripped: 1, conversionsAnonymised: 1, visitors: 0, clicks: 0, identityLinks: 4, carts: 1 },
    });
    expect(changeSummary(removal)).toBe(
      'Removed what the Shopify source “Fern shop” stored from the shop, as Shopify asks 48 hours after the shop removes the app: 3 events deleted, 1 event stripped of personal data, 1 conversion anonymised, 4 identity links, 1 remembered cart',
    );
    expect(fieldChanges(removal)).toContainEqual({ field: 'Remembered carts', before: '–', after: '1' });
    expect(fieldChanges(removal).map((change) => change.field)).not.toContain('name');
  });
});
