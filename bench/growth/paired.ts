/**
 * The grown store's batched rate against the empty store's beside it (empty-store.ts). Each round on the grown store
 * is paired with one on the empty store, the pair's first alternating, and a store runs slower right after the other
 * one than after itself (in a run at 40,000,000 events the grown store's pairs were 75–94% when it went second,
 * 97–102% when first; its statement read more blocks from outside shared buffers than in runs without the empty
 * store). So the rounds are even in number, each store then having as many rounds after the other as after itself,
 * and the share is the geometric mean of the pairs' ratios, in which those slowdowns cancel when they match.
 */
export function pairedShares(grownRates: readonly number[], emptyRates: readonly number[]): number[] {
  if (grownRates.length !== emptyRates.length) throw new Error(`paired rounds: ${grownRates.length} on the grown store against ${emptyRates.length} on the empty store`);
  return grownRates.map((rate, i) => rate / (emptyRates[i] as number));
}

export function pairedShare(grownRates: readonly number[], emptyRates: readonly number[]): number {
  const shares = pairedShares(grownRates, emptyRates);
  return Math.exp(shares.reduce((sum, share) => sum + Math.log(share), 0) / shares.length);
}

/** BENCH_GROWTH_BATCH_ROUNDS: an even number of rounds, so that the pairs' orders balance. */
export function parseBatchRounds(text: string): number {
  const rounds = Number(text);
  if (!Number.isInteger(rounds) || rounds < 2 || rounds % 2 !== 0) throw new Error(`BENCH_GROWTH_BATCH_ROUNDS must be an even whole number of at least 2 (the pairs of rounds alternate which store goes first): got "${text}"`);
  return rounds;
}
