/**
 * For afterAll: runs every step in order, each one even when an earlier one failed (an afterAll that stops at its
 * first error leaves the rest running, and jest up), then throws what failed.
 */
export async function closeAll(...steps: (() => unknown)[]): Promise<void> {
  const failures: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `${failures.length} clean-up steps failed: ${failures.map(String).join('; ')}`);
}
