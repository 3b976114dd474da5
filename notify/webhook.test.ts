import { startWebhookReceiver, type WebhookReceiver } from '../test/helpers/webhook-receiver';
import { createWebhookPoster, publicOnlyLookup } from './webhook';
import { internalKind, type HostLookup } from './webhook-target';

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
      await expect(post(at(host), 'hello')).rejects.toThrow(/^the webhook's host [0-9a-f:.]+ is (the IPv4-mapped form of 127\.0\.0\.1, )?a loopback address, which this server does not call$/);
    }
    await expect(post(at('localhost'), 'hello')).rejects.toThrow(/^the webhook's host localhost is at (127\.0\.0\.1|::1), a loopback address, which this server does not call$/);
    expect(receiver.received).toEqual([]);
  });

  /** Issue 43's addresses, which the hand list let through: each as the URL's host, and as a name that resolves to it. */
  const issue43 = ['64:ff9b::a9fe:a9fe', '::7f00:1', '::ffff:0:7f00:1', '198.18.0.1', '192.0.2.1'];
  /** This machine has no DNS: `<n>.attacker.example` resolves to the n-th address above, as a resolver would answer. */
  const resolver: HostLookup = async (hostname) => {
    const address = issue43[Number(hostname.split('.')[0])];
    if (address === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address }];
  };

  it.each(issue43.map((address, index) => [address, index]))('with internal addresses refused, calls %s neither as the host nor through a name', async (address, index) => {
    const post = createWebhookPoster({ internalAddresses: 'refuse', lookup: resolver });
    const literal = address.includes(':') ? `[${address}]` : address;
    await expect(post(`https://${literal}/hook`, 'hello')).rejects.toThrow(new RegExp(`^the webhook's host ${address} is .+, which this server does not call$`));
    await expect(post(at(`${index}.attacker.example`), 'hello')).rejects.toThrow(new RegExp(`^the webhook's host ${index}\\.attacker\\.example is at ${address}, .+, which this server does not call$`));
    expect(receiver.received).toEqual([]);
  });

  it('with internal addresses refused, lets a public address through to the connection, written as one or through a name', async () => {
    // Checked at the lookup the connection makes, so no packet leaves this machine (tests call no public address).
    const publicNames: HostLookup = async () => [{ address: '93.184.215.14' }, { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c' }];
    const lookup = publicOnlyLookup(publicNames);
    const first = await new Promise((resolve, reject) => lookup('hooks.public.example', {}, (error, address, family) => (error ? reject(error) : resolve({ address, family }))));
    expect(first).toEqual({ address: '93.184.215.14', family: 4 });
    const all = await new Promise((resolve, reject) => lookup('hooks.public.example', { all: true }, (error, address) => (error ? reject(error) : resolve(address))));
    expect(all).toEqual([{ address: '93.184.215.14', family: 4 }, { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 }]);
    expect(internalKind('93.184.215.14')).toBeUndefined();
  });
});
