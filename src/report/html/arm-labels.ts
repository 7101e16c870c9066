/**
 * Short names of the arms as the seed article writes them: A baseline n=1, B candidate n=1,
 * C baseline n=N, D candidate n=N. With several N (best_of_n: [1, 4, 8]) the N is appended
 * (C4, D8) so every arm keeps a distinct label.
 */
import { armLetter } from '../../core/arm-letter.js';

export { armLetter };

export interface ArmIdentity {
  arm: string;
  variant: 'baseline' | 'candidate';
  n: number;
}

export function armCaption(arm: ArmIdentity, allN: readonly number[]): string {
  return `${armLetter(arm, allN)} · ${arm.variant} n=${arm.n}`;
}

/** Baseline in slate, candidate in a strong blue: the eye goes to the candidate. */
export const VARIANT_COLORS = { baseline: '#64748b', candidate: '#2563eb' } as const;
