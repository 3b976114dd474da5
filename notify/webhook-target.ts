import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * `refuse` (the default): a webhook reaches only public addresses, so that a webhook URL cannot make Signalbox call an
 * internal service or a cloud's metadata address. `allow`: it may be on this machine or the operator's network (a
 * self-hosted chat server); the dev stack sets it.
 */
export type InternalAddresses = 'allow' | 'refuse';

/** The addresses a host name stands for (`dns.promises.lookup` with `all: true`). */
export type HostLookup = (hostname: string) => Promise<readonly { address: string }[]>;

export interface WebhookTargetRule {
  internalAddresses: InternalAddresses;
  /** Default: the system's resolver, as the connection will use it. */
  lookup?: HostLookup;
}

/** Internal ranges, IPv4 and IPv6, by what they are (an IPv4-mapped IPv6 address counts as its IPv4 address). */
const RANGES: readonly (readonly [kind: string, network: string, prefix: number, family: 'ipv4' | 'ipv6'])[] = [
  ['a loopback address', '127.0.0.0', 8, 'ipv4'],
  ['a loopback address', '::1', 128, 'ipv6'],
  ['a link-local address, where clouds serve instance metadata', '169.254.0.0', 16, 'ipv4'],
  ['a link-local address', 'fe80::', 10, 'ipv6'],
  ['a private network address', '10.0.0.0', 8, 'ipv4'],
  ['a private network address', '172.16.0.0', 12, 'ipv4'],
  ['a private network address', '192.168.0.0', 16, 'ipv4'],
  ['a private network address', 'fc00::', 7, 'ipv6'],
  ['a carrier-grade NAT address', '100.64.0.0', 10, 'ipv4'],
  ['an unspecified address', '0.0.0.0', 8, 'ipv4'],
  ['an unspecified address', '::', 128, 'ipv6'],
  ['a multicast or reserved address', '224.0.0.0', 3, 'ipv4'],
  ['a multicast address', 'ff00::', 8, 'ipv6'],
];
const KINDS = RANGES.map(([kind, network, prefix, family]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { kind, list };
});

/** What an internal address is ("a loopback address"); undefined for a public one. */
export function internalKind(address: string): string | undefined {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  return KINDS.find(({ list }) => list.check(address, family))?.kind;
}

/** "169.254.169.254 is a link-local address, …" or "localhost is at 127.0.0.1, a loopback address". */
export function internalAddressText(host: string, address: string, kind: string): string {
  return host === address ? `${address} is ${kind}` : `${host} is at ${address}, ${kind}`;
}

/** The URL's host without the brackets of an IPv6 literal. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

const systemLookup: HostLookup = (hostname) => lookup(hostname, { all: true });

/**
 * Why Signalbox will not call this webhook URL, worded to follow the field's name ("must reach a public address: …"),
 * or undefined when it may: with internal addresses refused, its host must be a public address or a name whose every
 * address is public. The alert settings check it when the URL is saved; the worker's poster checks again on the
 * address it connects to, as a name may resolve differently later.
 */
export async function webhookTargetProblem(url: string, rule: WebhookTargetRule): Promise<string | undefined> {
  if (rule.internalAddresses === 'allow') return undefined;
  const host = hostOf(new URL(url));
  let addresses: readonly { address: string }[] = [{ address: host }];
  if (isIP(host) === 0) {
    try {
      addresses = await (rule.lookup ?? systemLookup)(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'no answer';
      return code === 'ENOTFOUND' || code === 'ENODATA' ? `must name a host that exists: ${host} has no address (${code})` : `could not be checked: looking up ${host} failed just now (${code}); try again`;
    }
    if (addresses.length === 0) return `must name a host that exists: ${host} has no address`;
  }
  for (const { address } of addresses) {
    const kind = internalKind(address);
    if (kind !== undefined) return `must reach a public address: ${internalAddressText(host, address, kind)}, which this server does not call`;
  }
  return undefined;
}
