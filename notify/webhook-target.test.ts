import { internalKind, webhookTargetProblem, type HostLookup } from './webhook-target';

/** This machine has no DNS: names other than localhost resolve through this table, as a resolver would answer. */
const answers: Record<string, string[]> = {
  'hooks.slack.example': ['198.51.100.20'],
  'metadata.attacker.example': ['169.254.169.254'],
  'split.attacker.example': ['198.51.100.21', '10.0.0.5'],
};
const lookup: HostLookup = async (hostname) => {
  const addresses = answers[hostname];
  if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address }));
};
const refuse = { internalAddresses: 'refuse' as const, lookup };

describe('internalKind', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.53.0.1', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['169.254.169.254', 'a link-local address, where clouds serve instance metadata'],
    ['fe80::1', 'a link-local address'],
    ['10.1.2.3', 'a private network address'],
    ['172.31.255.255', 'a private network address'],
    ['192.168.0.1', 'a private network address'],
    ['fd00:ec2::254', 'a private network address'],
    ['100.100.100.200', 'a carrier-grade NAT address'],
    ['0.0.0.0', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['239.255.255.250', 'a multicast or reserved address'],
    ['ff02::1', 'a multicast address'],
  ])('%s is %s', (address, kind) => {
    expect(internalKind(address)).toBe(kind);
  });

  it.each(['198.51.100.20', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2001:db8::1', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(internalKind(address)).toBeUndefined();
  });
});

describe('webhookTargetProblem with internal addresses refused (the default)', () => {
  it.each([
    ['https://169.254.169.254/latest/meta-data/', 'must reach a public address: 169.254.169.254 is a link-local address, where clouds serve instance metadata, which this server does not call'],
    ['http://127.0.0.1:8080/hook', 'must reach a public address: 127.0.0.1 is a loopback address, which this server does not call'],
    ['http://[::1]:8080/hook', 'must reach a public address: ::1 is a loopback address, which this server does not call'],
    ['https://[::ffff:a9fe:a9fe]/', 'must reach a public address: ::ffff:a9fe:a9fe is a link-local address, where clouds serve instance metadata, which this server does not call'],
    // WHATWG URL parsing turns these spellings into 127.0.0.1 before anything else sees them.
    ['http://2130706433/', 'must reach a public address: 127.0.0.1 is a loopback address, which this server does not call'],
    ['http://0x7f.1/', 'must reach a public address: 127.0.0.1 is a loopback address, which this server does not call'],
    ['https://metadata.attacker.example/x', 'must reach a public address: metadata.attacker.example is at 169.254.169.254, a link-local address, where clouds serve instance metadata, which this server does not call'],
    ['https://split.attacker.example/x', 'must reach a public address: split.attacker.example is at 10.0.0.5, a private network address, which this server does not call'],
    ['https://nowhere.example/x', 'must name a host that exists: nowhere.example has no address (ENOTFOUND)'],
  ])('refuses %s', async (url, problem) => {
    expect(await webhookTargetProblem(url, refuse)).toBe(problem);
  });

  it('refuses a name that resolves to this machine, with the system resolver', async () => {
    expect(await webhookTargetProblem('http://localhost:8080/hook', { internalAddresses: 'refuse' })).toMatch(/^must reach a public address: localhost is at (127\.0\.0\.1|::1), a loopback address/);
  });

  it('says so when the lookup fails for now, rather than calling the host unknown', async () => {
    const failing: HostLookup = async () => {
      throw Object.assign(new Error('getaddrinfo EAI_AGAIN'), { code: 'EAI_AGAIN' });
    };
    expect(await webhookTargetProblem('https://hooks.slack.example/x', { internalAddresses: 'refuse', lookup: failing })).toBe(
      'could not be checked: looking up hooks.slack.example failed just now (EAI_AGAIN); try again',
    );
  });

  it.each(['https://hooks.slack.example/services/T0/B0/X', 'https://198.51.100.7/hook', 'https://[2001:db8::7]/hook'])('accepts %s', async (url) => {
    expect(await webhookTargetProblem(url, refuse)).toBeUndefined();
  });
});

describe('webhookTargetProblem with internal addresses allowed (the dev stack)', () => {
  it('accepts any host without looking it up', async () => {
    const unused: HostLookup = () => Promise.reject(new Error('looked up'));
    for (const url of ['http://127.0.0.1:8080/hook', 'https://169.254.169.254/latest/meta-data/', 'https://nowhere.example/x']) {
      expect(await webhookTargetProblem(url, { internalAddresses: 'allow', lookup: unused })).toBeUndefined();
    }
  });
});
