/** Runs `task(0..count-1)` with at most `limit` in flight. */
export async function runWithConcurrency(count: number, limit: number, task: (index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, count) }, async () => {
    while (next < count) await task(next++);
  });
  await Promise.all(lanes);
}
