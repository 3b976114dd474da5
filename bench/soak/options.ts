/** How long and how hard the soak runs, and how often it breaks things. */
export interface SoakOptions {
  /** The steady load lasts this long. */
  durationMs: number;
  /** New journeys (one visitor's or customer's calls, a few seconds apart) started per second. */
  journeysPerSecond: number;
  /** A kill -9 about this often (±25%). */
  killEveryMs: number;
  /** A burst of TikTok throttling or 5xx about this often (±25%), each lasting `burstMs`. */
  burstEveryMs: number;
  burstMs: number;
  /** Memory of each process read this often (judged over the last 10 minutes of a run of 15 or more). */
  sampleEveryMs: number;
  /** After the load, the longest wait for every conversion to reach a final state. */
  drainMs: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** `npm run bench:soak`'s defaults: 20 minutes, a kill every 2 minutes, memory judged over the last 10. */
export const FULL_SOAK: SoakOptions = {
  durationMs: 20 * MINUTE,
  journeysPerSecond: 10,
  killEveryMs: 2 * MINUTE,
  burstEveryMs: 90 * SECOND,
  burstMs: 20 * SECOND,
  sampleEveryMs: 15 * SECOND,
  drainMs: 5 * MINUTE,
};

/**
 * The 2-minute soak `npm test` runs: a kill every 20 s, so that each kind of process is killed at least once. Its
 * memory is read but not judged: two minutes are too short to tell a leak from the garbage collector's swings.
 */
export const SHORT_SOAK: SoakOptions = {
  durationMs: 2 * MINUTE,
  journeysPerSecond: 6,
  killEveryMs: 20 * SECOND,
  burstEveryMs: 30 * SECOND,
  burstMs: 10 * SECOND,
  sampleEveryMs: 5 * SECOND,
  drainMs: 3 * MINUTE,
};

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not "${text}"`);
  return value;
}

/**
 * The full soak with the environment's changes: SOAK_MINUTES, SOAK_JOURNEYS_PER_SECOND, SOAK_KILL_EVERY_SECONDS,
 * SOAK_BURST_EVERY_SECONDS, SOAK_BURST_SECONDS, SOAK_DRAIN_MINUTES.
 */
export function soakOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SoakOptions {
  const durationMs = positive(env, 'SOAK_MINUTES', FULL_SOAK.durationMs / MINUTE) * MINUTE;
  return {
    durationMs,
    journeysPerSecond: positive(env, 'SOAK_JOURNEYS_PER_SECOND', FULL_SOAK.journeysPerSecond),
    killEveryMs: positive(env, 'SOAK_KILL_EVERY_SECONDS', FULL_SOAK.killEveryMs / SECOND) * SECOND,
    burstEveryMs: positive(env, 'SOAK_BURST_EVERY_SECONDS', FULL_SOAK.burstEveryMs / SECOND) * SECOND,
    burstMs: positive(env, 'SOAK_BURST_SECONDS', FULL_SOAK.burstMs / SECOND) * SECOND,
    sampleEveryMs: Math.min(FULL_SOAK.sampleEveryMs, durationMs / 40),
    drainMs: positive(env, 'SOAK_DRAIN_MINUTES', FULL_SOAK.drainMs / MINUTE) * MINUTE,
  };
}
