import type { RefusalReason } from '../http/ingest-refusal';
import { refusalWords } from './refusal-words';

const REASONS: RefusalReason[] = ['missing_key', 'malformed_authorization', 'unknown_key', 'origin_not_allowed', 'browser_key_without_origin', 'app_key_from_page', 'secret_key_from_page', 'secret_key_in_url', 'workspace_mismatch'];
const refused = (reason: string | null, more: Partial<Parameters<typeof refusalWords>[0]> = {}) =>
  refusalWords({ status: 403, error: 'forbidden', reason, origin: 'https://evil.example', message: 'the ingest API’s own message', issues: null, source: null, ...more });
/** Prose with what is between backticks (literals to copy) taken out. */
const prose = (text: string) => text.replace(/`[^`]*`/g, '');

describe('a refused request in words', () => {
  it('points the origin refusal at the allowed origins on Sources, naming the origin, with no setting name or command', () => {
    expect(refused('origin_not_allowed')).toEqual({
      title: 'Refused: https://evil.example is not an allowed origin',
      explanation: 'A page on https://evil.example sent events with a browser key, and browser keys are accepted only from the sites listed as allowed origins.',
      fix: 'If it is your site, add https://evil.example to the allowed origins.',
      link: { page: 'sources#allowed-origins', label: 'Sources: allowed origins' },
    });
  });

  it.each(REASONS)('says %s in words: no code, header or status outside backticks', (reason) => {
    const words = refused(reason);
    for (const text of [words.title, words.explanation, words.fix]) {
      expect(prose(text)).not.toMatch(/\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z]\w*\b|X-Workspace-Id|signalbox settings|\b40[0-9]\b/);
    }
    expect(words.title).toMatch(/^Refused: /);
  });

  it.each(['shopify_unreadable', 'shopify_not_its_topic', 'shopify_unstorable'] as const)('says in words why a signed Shopify delivery answered 200 was not stored (%s)', (reason) => {
    const words = refused(reason, { status: 200, error: 'not_stored', origin: null, message: 'the body is empty' });
    expect(words.title).toMatch(/^Not stored: a Shopify delivery /);
    for (const text of [words.title, words.explanation, words.fix]) {
      expect(prose(text)).not.toMatch(/\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z]\w*\b|\b(200|40[0-9]|413)\b/);
    }
  });

  it('tells a shop owner whose deliveries cannot be read where Shopify sets their format', () => {
    const words = refused('shopify_unreadable', { status: 200, error: 'not_stored', message: 'not stored: the body is empty' });
    expect(words.fix).toMatch(/Settings → Notifications → Webhooks\) and choose the JSON format\.$/);
    const issues = ['properties.order_id must be at most 1024 bytes of UTF-8'];
    expect(refused('shopify_unstorable', { status: 200, error: 'not_stored', message: 'not stored', issues }).explanation).toBe('Shopify was told it arrived, so it does not send it again. What was wrong is listed below.');
  });

  it.each([
    ['Shopify', { name: 'Fern shop', type: 'shopify' as const }, /copy the key Shopify shows under Settings → Notifications → Webhooks/],
    ['webhook', { name: 'Stripe payments', type: 'webhook' as const }, /give this source the signing secret the platform shows/],
  ])('names the %s source of a forged delivery, and says where its key is, never the code that sends it', (_kind, source, fix) => {
    const words = refused(null, { status: 401, error: 'unauthorized', origin: null, source, message: 'X-Shopify-Hmac-Sha256 does not match the body signed with this source’s secret' });
    expect(words.title).toBe(`Refused: a delivery to ${source.name} that was not signed with its key`);
    expect(words.fix).toMatch(fix);
    expect(words.link).toEqual({ page: 'sources#webhooks', label: 'Sources: Shopify and webhooks' });
  });

  it('never answers with what a shop owner cannot act on', () => {
    const shopify = { name: 'Fern shop', type: 'shopify' as const };
    for (const facts of [{ status: 400 }, { status: 404 }, { status: 413 }, { status: 415 }, { status: 400, source: shopify }, { status: 404, source: shopify }, { status: 400, source: { ...shopify, type: 'webhook' as const } }]) {
      const words = refused(null, { error: 'invalid_request', origin: null, ...facts });
      expect(words.fix).not.toMatch(/the code that sends it|The explanation says what the request lacked|Send fewer events per request/);
    }
  });

  it('counts the invalid fields of a refused body, and keeps the message of what it does not know', () => {
    expect(refused(null, { status: 400, error: 'invalid_request', issues: ['batch[0].event is required for track messages', 'batch[1].type is invalid'] }).title).toBe('Refused: 2 fields are invalid');
    expect(refused(null, { status: 400, error: 'invalid_request', issues: ['batch[0].event is required for track messages'] }).title).toBe('Refused: a field is invalid');
    expect(refused(null, { status: 415, error: 'unsupported_media_type', message: 'Content-Type text/plain is not supported: send application/json' }).explanation).toBe(
      'Content-Type text/plain is not supported: send application/json',
    );
  });
});
