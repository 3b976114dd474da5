import type { BenchEvent } from '../workload';

/** One library under test, driven the way its README says: a track call per event, then its shutdown call. */
export interface BenchClient {
  /** Returns a promise when the library's track call does; the loop then awaits it, as its README says to. */
  track(event: BenchEvent): Promise<void> | void;
  /** Resolves once everything tracked has been sent. */
  finish(): Promise<void>;
  /** Events the library reported as failed or dropped. */
  errors(): number;
}

export type CreateBenchClient = (host: string, eventCount: number) => BenchClient;

/** Each client lives in a module of its own, so a client process loads only the library it measures. */
export const CLIENT_PACKAGES = {
  signalbox: '@signalbox/api',
  posthog: 'posthog-node',
  segment: '@segment/analytics-node',
  rudderstack: '@rudderstack/rudder-sdk-node',
} as const;
export type ClientName = keyof typeof CLIENT_PACKAGES;

/** Shutdown calls may take as long as they need; the runner's own time limit stops a stuck client. */
export const SHUTDOWN_TIMEOUT_MS = 600_000;
