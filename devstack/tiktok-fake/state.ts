import { setTimeout as sleep } from 'node:timers/promises';
import { AdCatalog } from './ad-catalog';
import { ClickStore } from './click-store';
import { FakeClock } from './clock';
import { DedupStore } from './dedup-store';
import { FaultQueue } from './faults';
import { OAuthStore } from './oauth-store';
import { ReceivedLog } from './received-log';
import type { FakeTikTokSeed, FakeTikTokTokenGrant } from './seed';

const DEDUP_WINDOW_MS = 48 * 60 * 60 * 1000;

/** Everything the fake remembers; shared by the TikTok route modules and the control API. */
export class FakeTikTokState {
  readonly clock = new FakeClock();
  readonly faults = new FaultQueue();
  readonly log = new ReceivedLog();
  readonly dedup = new DedupStore(DEDUP_WINDOW_MS);
  readonly oauth = new OAuthStore();
  readonly clicks = new ClickStore();
  readonly catalog: AdCatalog;
  private readonly tokens = new Map<string, FakeTikTokTokenGrant>();
  private readonly shuttingDown = new AbortController();

  constructor(private readonly seed: FakeTikTokSeed) {
    this.catalog = new AdCatalog(seed.advertisers ?? []);
    this.reset();
  }

  registerToken(grant: FakeTikTokTokenGrant): void {
    this.tokens.set(grant.accessToken, grant);
  }

  findToken(accessToken: string): FakeTikTokTokenGrant | undefined {
    return this.tokens.get(accessToken);
  }

  /** Back to the seed: no faults, nothing received, empty dedup store, no clicks or codes issued, real time. */
  reset(): void {
    this.faults.clear();
    this.log.clear();
    this.dedup.clear();
    this.clicks.clear();
    this.oauth.reset(this.seed.apps ?? []);
    this.clock.useRealTime();
    this.tokens.clear();
    for (const grant of this.seed.tokens) this.registerToken(grant);
  }

  /** Injected latency; cut short when the server closes so that close() never waits for it. */
  async delay(ms: number): Promise<void> {
    try {
      await sleep(ms, undefined, { signal: this.shuttingDown.signal });
    } catch {
      // Aborted by shutdown(): answer at once; the connection is being closed anyway.
    }
  }

  shutdown(): void {
    this.shuttingDown.abort();
  }
}
