import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';

/** The wait for a webhook's answer ends: an evaluation never hangs on a slow receiver. */
const TIMEOUT_MS = 10_000;

/**
 * `allow`: a webhook may be on this machine or the operator's network (a self-hosted chat server). `refuse`: only
 * public addresses, for a console whose users are not the operator's own people, so that a webhook URL cannot make
 * the worker call an internal service (or a cloud's metadata address).
 */
export type InternalAddresses = 'allow' | 'refuse';

/** Loopback, private, shared (carrier-grade NAT), link-local and unspecified addresses, IPv4 and IPv6. */
const INTERNAL = new BlockList();
for (const [network, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [['::', 127], ['fc00::', 7], ['fe80::', 10]] as const) INTERNAL.addSubnet(network, prefix, 'ipv6');

const isInternal = (address: string) => INTERNAL.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
const refusedAddress = (host: string, address: string) => new Error(`the webhook's host ${host} is at ${address}, an internal address, which this server does not call`);

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The system's lookup, failing when the host has an internal address: checked where the connection is made, so a DNS answer cannot change between the check and the call. */
function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const internal = addresses.find((entry) => isInternal(entry.address));
    if (internal !== undefined) return callback(refusedAddress(hostname, internal.address), []);
    if (options.all === true) return callback(null, addresses);
    const [first] = addresses as [LookupAddress];
    callback(null, first.address, first.family);
  });
}

/** Posts `{"text": …}`, the body Slack's incoming webhooks (and Mattermost's, Discord's `/slack`) take; non-2xx throws. Redirects are not followed. */
export function createWebhookPoster({ internalAddresses, timeoutMs = TIMEOUT_MS }: { internalAddresses: InternalAddresses; timeoutMs?: number }) {
  return function postWebhook(url: string, text: string): Promise<void> {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const options: RequestOptions = { method: 'POST', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(timeoutMs) };
    if (internalAddresses === 'refuse') {
      // A literal address is connected to without a lookup.
      if (isIP(host) !== 0 && isInternal(host)) return Promise.reject(refusedAddress(host, host));
      options.lookup = publicOnlyLookup as RequestOptions['lookup'];
    }
    return new Promise((resolve, reject) => {
      const sent = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, options, (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        if (status < 200 || status > 299) reject(new Error(`the webhook answered HTTP ${status}`));
        else resolve();
      });
      sent.on('error', reject);
      sent.end(JSON.stringify({ text }));
    });
  };
}

export type WebhookPoster = ReturnType<typeof createWebhookPoster>;
