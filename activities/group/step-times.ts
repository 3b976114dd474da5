/** Milliseconds a group spent in each part of its steps, by part: the group's log line says where its time went. */
export type StepTimes = Record<string, number>;

/** Times the parts of a group's steps into `times` (a part timed twice adds up). */
export function stepTimer(times: StepTimes = {}) {
  const add = (part: string, since: number) => {
    times[part] = (times[part] ?? 0) + (performance.now() - since);
  };
  return {
    times,
    async time<T>(part: string, work: () => Promise<T>): Promise<T> {
      const since = performance.now();
      try {
        return await work();
      } finally {
        add(part, since);
      }
    },
    timeSync<T>(part: string, work: () => T): T {
      const since = performance.now();
      try {
        return work();
      } finally {
        add(part, since);
      }
    },
  };
}

export type StepTimer = ReturnType<typeof stepTimer>;

/** Whole milliseconds, for a log line. */
export function rounded(times: StepTimes): StepTimes {
  return Object.fromEntries(Object.entries(times).map(([part, ms]) => [part, Math.round(ms)]));
}
