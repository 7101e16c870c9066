/**
 * Short names of the arms as the seed article writes them: A baseline n=1, B candidate n=1,
 * C baseline n=N, D candidate n=N. With several N (best_of_n: [1, 4, 8]) the N is appended
 * (C4, D8) so every arm keeps a distinct label. Shared by the terminal (progress line, narrow
 * table) and the report, so an arm has one name everywhere.
 */
export function armLetter(arm: { variant: 'baseline' | 'candidate'; n: number }, allN: readonly number[]): string {
  if (arm.n === 1) return arm.variant === 'baseline' ? 'A' : 'B';
  const several = new Set(allN.filter((n) => n > 1)).size > 1;
  return `${arm.variant === 'baseline' ? 'C' : 'D'}${several ? String(arm.n) : ''}`;
}
