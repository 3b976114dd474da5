import { startWebhookReceiver, type WebhookReceiver } from '../test/helpers/webhook-receiver';
import { createWebhookPoster } from './webhook';

let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver?.close());
afterEach(() => {
  receiver.received.length = 0;
  receiver.answerWith(200);
});

/** The receiver's URL with its host replaced. */
const at = (host: string) => {
  const url = new URL(receiver.url);
  url.hostname = host;
  return url.href;
};

describe('alert webhooks', () => {
  it('posts {"text"} and resolves on a 2xx answer; another answer is an error naming it', async () => {
    const post = createWebhookPoster({ internalAddresses: 'allow' });
    await post(receiver.url, '*Alert*\nTikTok needs to be connected again');
    expect(receiver.received).toEqual([{ text: '*Alert*\nTikTok needs to be connected again' }]);
    receiver.answerWith(500);
    await expect(post(receiver.url, 'again')).rejects.toThrow('the webhook answered HTTP 500');
  });

  it('with internal addresses refused, calls none: literal IPv4, IPv6 and mapped addresses, and names that resolve to one', async () => {
    const post = createWebhookPoster({ internalAddresses: 'refuse' });
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]']) {
      await expect(post(at(host), 'hello')).rejects.toThrow(/^the webhook's host [0-9a-f:.]+ is a loopback address, which this server does not call$/);
    }
    await expect(post(at('localhost'), 'hello')).rejects.toThrow(/^the webhook's host localhost is at (127\.0\.0\.1|::1), a loopback address, which this server does not call$/);
    expect(receiver.received).toEqual([]);
  });

  it('with internal addresses refused, still calls a public address', async () => {
    // TEST-NET-3 (RFC 5737): public in form, routed nowhere here, so the call fails on the network, not on the rule.
    const post = createWebhookPoster({ internalAddresses: 'refuse', timeoutMs: 300 });
    await expect(post('https://203.0.113.7/hook', 'hello')).rejects.toThrow(/^(?!.*which this server does not call)/);
  });
});
