import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

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

/**
 * What each of ipaddr.js's ranges is, in words, for every range but public unicast. Ranges ipaddr.js adds later are
 * refused too, as "a special-purpose address".
 */
const RANGE_WORDS: Readonly<Record<string, string>> = {
  loopback: 'a loopback address',
  linkLocal: 'a link-local address',
  private: 'a private network address',
  uniqueLocal: 'a private network address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  reserved: 'a reserved address (for documentation, tests or future use)',
  benchmarking: 'a benchmarking address',
  rfc6052: 'a local-use NAT64 address',
  '6to4': 'a 6to4 relay address',
  teredo: 'a Teredo tunnel address',
};

/** IPv6 forms whose last 32 bits are the IPv4 address the connection reaches in the end, by ipaddr.js's range. */
const IPV4_CARRIERS: Readonly<Record<string, string>> = { ipv4Mapped: 'the IPv4-mapped form', rfc6145: 'the IPv4-translated form', rfc6052: 'the NAT64 form' };
/** NAT64's well-known prefix, the one whose IPv4 address is its last 32 bits (a local-use prefix may embed it elsewhere). */
const WELL_KNOWN_NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
/** Where public IPv6 unicast addresses are: ipaddr.js calls `unicast` what none of its ranges holds, `::7f00:1` too. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

function ipv4Kind(address: ipaddr.IPv4): string | undefined {
  const range = address.range();
  if (range === 'unicast') return undefined;
  if (range === 'linkLocal') return 'a link-local address, where clouds serve instance metadata';
  return RANGE_WORDS[range] ?? 'a special-purpose address';
}

function ipv6Kind(address: ipaddr.IPv6): string | undefined {
  const range = address.range();
  const carrier = IPV4_CARRIERS[range];
  if (carrier !== undefined && (range !== 'rfc6052' || address.match(WELL_KNOWN_NAT64))) {
    const ipv4 = new ipaddr.IPv4(address.toByteArray().slice(12));
    const kind = ipv4Kind(ipv4);
    return kind === undefined ? undefined : `${carrier} of ${ipv4.toString()}, ${kind}`;
  }
  if (range === 'unicast') return address.match(GLOBAL_UNICAST) ? undefined : 'an IPv6 address outside the public (global unicast) range';
  return RANGE_WORDS[range] ?? 'a special-purpose address';
}

/**
 * What an address Signalbox would call is ("a loopback address"), by ipaddr.js's classification; undefined for a public
 * one. Only public unicast passes: an IPv6 form that carries an IPv4 address counts as that address.
 */
export function internalKind(address: string): string | undefined {
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv6' ? ipv6Kind(parsed as ipaddr.IPv6) : ipv4Kind(parsed as ipaddr.IPv4);
}

/** "169.254.169.254 is a link-local address, …" or "localhost is at 127.0.0.1, a loopback address". */
export function internalAddressText(host: string, address: string, kind: string): string {
  return host === address ? `${address} is ${kind}` : `${host} is at ${address}, ${kind}`;
}

/** The URL's host without the brackets of an IPv6 literal. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** The system's resolver, as a connection uses it. */
export const systemLookup: HostLookup = (hostname) => lookup(hostname, { all: true });

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
