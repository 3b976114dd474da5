import { randomUUID } from 'node:crypto';

const DAY = 86_400_000;

export function daysAgo(days: number, from = new Date()): Date {
  return new Date(from.getTime() - days * DAY);
}

export function ttclid(): string {
  return `E.C.P.${randomUUID().replace(/-/g, '')}`;
}

/** A landing-page view that carries a TikTok click, as the tracking script records it. */
export function landing(anonymousId: string, clickId: string, at: Date, extra: Record<string, unknown> = {}) {
  return {
    type: 'page',
    messageId: randomUUID(),
    anonymousId,
    timestamp: at.toISOString(),
    context: { page: { url: `https://shop.example/landing?utm_source=tiktok&ttclid=${clickId}` } },
    properties: { _ttp: `ttp-${anonymousId}` },
    ...extra,
  };
}

export function track(event: string, ids: { userId?: string; anonymousId?: string }, properties: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return { type: 'track', messageId: randomUUID(), event, timestamp: new Date().toISOString(), ...ids, properties, ...extra };
}

export function identify(userId: string, anonymousId: string | undefined, traits: Record<string, unknown>) {
  return { type: 'identify', messageId: randomUUID(), userId, anonymousId, traits, timestamp: new Date().toISOString() };
}
