import { internalKind, webhookTargetProblem, type HostLookup } from './webhook-target';

/**
 * This machine has no DNS: names other than localhost resolve through this table, as a resolver would answer. Public
 * addresses are example.com's (IANA's): documentation ranges such as 198.51.100.0/24 are refused now.
 */
const answers: Record<string, string[]> = {
  'hooks.slack.example': ['93.184.215.14'],
  'hooks6.slack.example': ['2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'metadata.attacker.example': ['169.254.169.254'],
  'split.attacker.example': ['93.184.215.15', '10.0.0.5'],
  'nat64.attacker.example': ['64:ff9b::a9fe:a9fe'],
  'compatible.attacker.example': ['::7f00:1'],
  'translated.attacker.example': ['::ffff:0:7f00:1'],
  'benchmark.attacker.example': ['198.18.0.1'],
  'documentation.attacker.example': ['192.0.2.1'],
};
const lookup: HostLookup = async (hostname) => {
  const addresses = answers[hostname];
  if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address }));
};
const refuse = { internalAddresses: 'refuse' as const, lookup };

/** Issue 43's addresses, which the hand list let through, with what each is. */
const ISSUE_43: readonly (readonly [address: string, kind: string])[] = [
  ['64:ff9b::a9fe:a9fe', 'the NAT64 form of 169.254.169.254, a link-local address, where clouds serve instance metadata'],
  ['::7f00:1', 'an IPv6 address outside the public (global unicast) range'],
  ['::ffff:0:7f00:1', 'the IPv4-translated form of 127.0.0.1, a loopback address'],
  ['198.18.0.1', 'a reserved address (for documentation, tests or future use)'],
  ['192.0.2.1', 'a reserved address (for documentation, tests or future use)'],
];

describe('internalKind', () => {
  it.each<readonly [address: string, kind: string]>([
    ...ISSUE_43,
    ['127.0.0.1', 'a loopback address'],
    ['127.53.0.1', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['::ffff:127.0.0.1', 'the IPv4-mapped form of 127.0.0.1, a loopback address'],
    ['169.254.169.254', 'a link-local address, where clouds serve instance metadata'],
    ['fe80::1', 'a link-local address'],
    ['fe80::1%eth0', 'a link-local address'],
    ['10.1.2.3', 'a private network address'],
    ['172.31.255.255', 'a private network address'],
    ['192.168.0.1', 'a private network address'],
    ['fd00:ec2::254', 'a private network address'],
    ['100.100.100.200', 'a carrier-grade NAT address'],
    ['0.0.0.0', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['239.255.255.250', 'a multicast address'],
    ['255.255.255.255', 'the broadcast address'],
    ['ff02::1', 'a multicast address'],
    ['198.51.100.20', 'a reserved address (for documentation, tests or future use)'],
    ['203.0.113.7', 'a reserved address (for documentation, tests or future use)'],
    ['240.0.0.1', 'a reserved address (for documentation, tests or future use)'],
    ['2001:db8::1', 'a reserved address (for documentation, tests or future use)'],
    ['2001:2::1', 'a benchmarking address'],
    ['2002:7f00:1::', 'a 6to4 relay address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'a Teredo tunnel address'],
    ['64:ff9b:1::a9fe:a9fe', 'a local-use NAT64 address'],
    ['::a9fe:a9fe', 'an IPv6 address outside the public (global unicast) range'],
    ['100::1', 'a special-purpose address'],
    ['192.175.48.1', 'a special-purpose address'],
  ])('%s is %s', (address, kind) => {
    expect(internalKind(address)).toBe(kind);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:8.8.8.8', '64:ff9b::808:808'])('%s is public', (address) => {
    expect(internalKind(address)).toBeUndefined();
  });
});

describe('webhookTargetProblem with internal addresses refused (the default)', () => {
  it.each([
    ['https://169.254.169.254/latest/meta-data/', 'must reach a public address: 169.254.169.254 is a link-local address, where clouds serve instance metadata, which this server does not call'],
    ['http://127.0.0.1:8080/hook', 'must reach a public address: 127.0.0.1 is a loopback address, which this server does not call'],
    ['http://[::1]:8080/hook', 'must reach a public address: ::1 is a loopback address, which this server does not call'],
    ['https://[::ffff:a9fe:a9fe]/', 'must reach a public address: ::ffff:a9fe:a9fe is the IPv4-mapped form of 169.254.169.254, a link-local address, where clouds serve instance metadata, which this server does not call'],
    // WHATWG URL parsing turns these spellings into 127.0.0.1 before anything else sees them.
    ['http://2130706433/', 'must reach a public address: 127.0.0.1 is a loopback address, which this server does not call'],
    ['http://0x7f.1/', 'must reach a public address: 127.0.0.1 is a loopback address, which this server does not call'],
    ['https://metadata.attacker.example/x', 'must reach a public address: metadata.attacker.example is at 169.254.169.254, a link-local address, where clouds serve instance metadata, which this server does not call'],
    ['https://split.attacker.example/x', 'must reach a public address: split.attacker.example is at 10.0.0.5, a private network address, which this server does not call'],
    ['https://[::ffff:0:7f00:1]/', 'must reach a public address: ::ffff:0:7f00:1 is the IPv4-translated form of 127.0.0.1, a loopback address, which this server does not call'],
    ['https://nowhere.example/x', 'must name a host that exists: nowhere.example has no address (ENOTFOUND)'],
  ])('refuses %s', async (url, problem) => {
    expect(await webhookTargetProblem(url, refuse)).toBe(problem);
  });

  it.each(ISSUE_43)('refuses %s, written in the URL or as a name that resolves to it', async (address, kind) => {
    const host = address.includes(':') ? `[${address}]` : address;
    expect(await webhookTargetProblem(`https://${host}/hook`, refuse)).toBe(`must reach a public address: ${address} is ${kind}, which this server does not call`);
    const [name] = Object.entries(answers).find(([, addresses]) => addresses.includes(address)) ?? [];
    expect(await webhookTargetProblem(`https://${name}/hook`, refuse)).toBe(`must reach a public address: ${name} is at ${address}, ${kind}, which this server does not call`);
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

  it.each(['https://hooks.slack.example/services/T0/B0/X', 'https://hooks6.slack.example/x', 'https://93.184.215.14/hook', 'https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook', 'https://[64:ff9b::5db8:d70e]/hook'])('accepts %s', async (url) => {
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
