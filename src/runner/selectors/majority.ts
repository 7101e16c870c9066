/**
 * `majority`: the most common output after `normalizeText` (the normalized scorer's rule),
 * i.e. self-consistency voting (Wang et al. 2022, arXiv:2203.11171) on whole outputs.
 * Empty outputs (after normalization) do not vote. Ties go to the group whose first member
 * has the lowest path index, and that first member is selected — deterministic, and biased
 * only toward path order, which carries no information about correctness.
 */
import { normalizeText } from '../../scorers/normalize-text.js';
import type { Selection, Selector, SelectorInput } from './spec.js';

interface VoteGroup {
  key: string;
  members: number[];
}

export function majoritySelector(): Selector {
  return {
    name: 'majority',
    async select({ outputs }: SelectorInput): Promise<Selection> {
      const groups = new Map<string, VoteGroup>();
      outputs.forEach((output, index) => {
        const key = normalizeText(output);
        if (key === '') return;
        const group = groups.get(key);
        if (group === undefined) groups.set(key, { key, members: [index] });
        else group.members.push(index);
      });
      // Map iteration follows insertion order, i.e. by first member's index, so the first
      // group with the top count is the tie-break winner.
      let winner: VoteGroup | undefined;
      for (const group of groups.values()) {
        if (winner === undefined || group.members.length > winner.members.length) winner = group;
      }
      if (winner === undefined) return { index: undefined, reason: `no non-empty output among ${outputs.length} paths to vote on` };
      const voters = [...groups.values()].reduce((sum, group) => sum + group.members.length, 0);
      const tied = [...groups.values()].filter((group) => group !== winner && group.members.length === winner.members.length).length;
      const tieNote = tied > 0 ? `; tie with ${tied} other group(s), broken by lowest path index` : '';
      const shown = winner.key.length > 60 ? `${winner.key.slice(0, 59)}…` : winner.key;
      return {
        index: winner.members[0],
        reason: `${winner.members.length}/${voters} votes for ${JSON.stringify(shown)} (paths ${winner.members.join(', ')})${tieNote}`,
      };
    },
  };
}
