/**
 * The starter dataset `isobudget init` writes when no `--from-dataset` is given: integer
 * arithmetic in four kinds (the simulator answers it, a real model too), numeric answers
 * for the `numeric` scorer. Deterministic: the same 80 rows every time. Pure.
 */

export interface SampleRow {
  id: string;
  input: string;
  expected: number;
  category: string;
}

export const SAMPLE_SIZE = 80;

const KINDS = ['add-sub', 'multiply', 'precedence', 'parentheses'] as const;

/** A small linear congruential generator: portable and enough to vary the operands. */
function numbers(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export function sampleRows(count = SAMPLE_SIZE): SampleRow[] {
  const next = numbers(20261201);
  const int = (low: number, high: number): number => low + Math.floor(next() * (high - low + 1));
  const rows: SampleRow[] = [];
  const seen = new Set<string>();
  while (rows.length < count) {
    const kind = KINDS[rows.length % KINDS.length] ?? 'add-sub';
    const [a, b, c] = [int(20, 99), int(12, 89), int(3, 9)];
    const [expression, value] = kind === 'add-sub' ? (next() < 0.5 ? [`${a} + ${b}`, a + b] : [`${a} - ${b}`, a - b])
      : kind === 'multiply' ? [`${a} * ${c}`, a * c]
      : kind === 'precedence' ? [`${a} + ${b} * ${c}`, a + b * c]
      : [`(${a} + ${b}) * ${c}`, (a + b) * c];
    if (seen.has(expression)) continue;
    seen.add(expression);
    rows.push({ id: `case-${String(rows.length + 1).padStart(3, '0')}`, input: `Compute ${expression}.`, expected: value, category: kind });
  }
  return rows;
}
