/**
 * The oracle selector announced wherever selected@N is shown (issue 24 item 5), pure. With
 * `selector: oracle` a Best-of-N arm "selects" a passing path whenever one exists, so
 * selected@N is pass@N — the upper bound the seed warns about, which no product can ship.
 */
import type { VerdictRecord } from '../verdict/record.js';

export function oracleNote(record: Pick<VerdictRecord, 'bestofn'>): string | undefined {
  const on = record.bestofn.find((b) => b.selector === 'oracle');
  if (!on) return undefined;
  return `selector oracle: selected@${on.n} is pass@${on.n}, an upper bound no product can ship (it picks a passing path whenever one exists); set selector: majority, judge or verifier for a product number`;
}
