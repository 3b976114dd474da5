import type { AddressInfo } from 'node:net';
import { buildFakeTikTokApp, type FakeTikTokAppOptions } from './app';
import { createFakeTikTokControl, type FakeTikTokControl } from './control-client';

export interface StartFakeTikTokOptions extends FakeTikTokAppOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface FakeTikTok extends FakeTikTokControl {
  /** Base URL to give the TikTok client, e.g. `http://127.0.0.1:40123`. */
  url: string;
  close(): Promise<void>;
}

/** Starts the fake on a real port; tests talk to it over HTTP like to the real API. */
export async function startFakeTikTok(options: StartFakeTikTokOptions = {}): Promise<FakeTikTok> {
  const { app } = await buildFakeTikTokApp(options);
  await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const url = baseUrlOf(app.server.address() as AddressInfo);
  return { url, ...createFakeTikTokControl(url), close: () => app.close() };
}

function baseUrlOf(address: AddressInfo): string {
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  if (wildcard) return `http://127.0.0.1:${address.port}`;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
