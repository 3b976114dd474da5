import { alertMessage, testAlertMessage } from './alert-message';

const openedAt = new Date('2026-11-28T00:41:50.192Z');
const fern = { workspaceId: 'ws_fern', workspaceName: 'Fern shop', publicUrl: 'https://signalbox.fern.example', advertiserTimeZone: 'Europe/Paris' };

describe('alertMessage', () => {
  it('names the workspace and the condition in the subject', () => {
    const message = alertMessage({ condition: 'reauthorization', detail: 'TikTok refused the access token.', openedAt }, fern);
    expect(message.subject).toBe('[Signalbox] Fern shop: TikTok needs to be connected again');
  });

  it('gives the time in the advertiser’s zone, named, never as a raw timestamp', () => {
    const { text } = alertMessage({ condition: 'no_events', detail: 'No event has arrived for 1 hour or more.', openedAt }, fern);
    expect(text).toContain('since 28 Nov 2026, 01:41 Europe/Paris.');
    expect(text).toContain("Times are in Europe/Paris, the TikTok advertiser's time zone");
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    const utc = alertMessage({ condition: 'no_events', detail: '…', openedAt }, { ...fern, advertiserTimeZone: null }).text;
    expect(utc).toContain('since 28 Nov 2026, 00:41 UTC.');
    expect(utc).toContain("Times are in UTC: TikTok has not reported the advertiser's time zone yet.");
  });

  it('links to the failed conversions and the Alerts page under PUBLIC_URL, and quotes what TikTok answered', () => {
    const answers = [
      { code: 40001, message: 'Invalid pixel code', conversions: 3 },
      { code: null, message: 'HTTP 500', conversions: 1 },
    ];
    const { text } = alertMessage({ condition: 'failed_deliveries', detail: '4 of the 10 conversions settled in the last hour failed.', openedAt }, fern, answers);
    expect(text.split('\n')).toEqual([
      'Deliveries to TikTok are failing in the workspace “Fern shop”, since 28 Nov 2026, 01:41 Europe/Paris.',
      '',
      '4 of the 10 conversions settled in the last hour failed.',
      '',
      'What TikTok answered the conversions that failed:',
      '- “Invalid pixel code” (code 40001): 3 conversions',
      '- “HTTP 500”: 1 conversion',
      '',
      'The failed conversions: https://signalbox.fern.example/console/w/ws_fern/conversions?status=failed',
      "This workspace's alerts: https://signalbox.fern.example/console/w/ws_fern/alerts",
      '',
      "Times are in Europe/Paris, the TikTok advertiser's time zone, which the console's figures use too. You get this once per incident, and again only when it starts again after it ended.",
    ]);
  });

  it('sends a re-authorization to Sources, and silence to the event debugger', () => {
    expect(alertMessage({ condition: 'reauthorization', detail: '…', openedAt }, fern).text).toContain('Connect TikTok again: https://signalbox.fern.example/console/w/ws_fern/sources#tiktok');
    expect(alertMessage({ condition: 'no_events', detail: '…', openedAt }, fern).text).toContain('What arrives, live: https://signalbox.fern.example/console/w/ws_fern/debugger');
  });
});

describe('testAlertMessage', () => {
  it('says it is a test, who asked and when, and links to the Alerts page', () => {
    const { subject, text } = testAlertMessage(fern, 'jo@fern.example', openedAt);
    expect(subject).toBe('[Signalbox] Fern shop: test alert');
    expect(text).toContain('A test alert for the workspace “Fern shop”, sent at 28 Nov 2026, 01:41 Europe/Paris at the request of jo@fern.example.');
    expect(text).toContain("This workspace's alerts: https://signalbox.fern.example/console/w/ws_fern/alerts");
  });
});
