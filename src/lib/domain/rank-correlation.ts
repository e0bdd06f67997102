/**
 * Kendall's tau-a between two orderings of the same items (the load simulation's fairness figure,
 * scripts/sim/load-sim.ts): 1 when the second keeps the first's order, -1 when it reverses it, near 0
 * when it is unrelated to it (a fair lottery). `ranks[i]` is where the item that came i-th in the first
 * ordering ended up in the second; ranks must be distinct. Null for fewer than two items.
 */
export function kendallTau(ranks: readonly number[]): number | null {
  const n = ranks.length;
  if (n < 2) return null;
  let concordant = 0;
  let discordant = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (ranks[i] === ranks[j]) throw new RangeError(`kendallTau: rank ${ranks[i]} appears twice`);
      if (ranks[i] < ranks[j]) concordant++;
      else discordant++;
    }
  }
  return (concordant - discordant) / ((n * (n - 1)) / 2);
}
