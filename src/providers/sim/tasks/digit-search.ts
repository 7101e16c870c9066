/**
 * Constraint search with many valid answers: "Find a three-digit number whose digits sum to
 * 15 and that is divisible by 7." The sim enumerates; when it is competent it answers one of
 * the valid numbers, otherwise a near miss (right digit sum, wrong divisibility). Which
 * number it names comes from the path's draws, so paths that share a draw repeat it.
 */
import { accuracyFor } from '../profiles.js';
import { pickIndex } from '../random.js';
import type { SimTask, SolveContext } from './spec.js';

export interface DigitSearchProblem {
  digits: number;
  digitSum: number;
  divisor: number;
}

const DIGIT_WORDS: Readonly<Record<string, number>> = { two: 2, three: 3, four: 4, five: 5 };

export function parseDigitSearch(text: string): DigitSearchProblem | undefined {
  const digitsMatch = /\b(\d|two|three|four|five)[- ]digit (?:positive )?(?:integer|number)\b/i.exec(text);
  const sumMatch = /\bdigits? (?:sum|add up) to (\d+)\b|\bdigit sum (?:is |of |equal to )?(\d+)\b/i.exec(text);
  const divisorMatch = /\bdivisible by (\d+)\b|\bmultiple of (\d+)\b/i.exec(text);
  if (!digitsMatch?.[1] || !sumMatch || !divisorMatch) return undefined;
  const word = digitsMatch[1].toLowerCase();
  const digits = DIGIT_WORDS[word] ?? Number(word);
  const digitSum = Number(sumMatch[1] ?? sumMatch[2]);
  const divisor = Number(divisorMatch[1] ?? divisorMatch[2]);
  if (!(digits >= 1 && digits <= 5) || !(divisor >= 1) || !Number.isFinite(digitSum)) return undefined;
  return { digits, digitSum, divisor };
}

function digitSumOf(value: number): number {
  let sum = 0;
  for (let rest = value; rest > 0; rest = Math.floor(rest / 10)) sum += rest % 10;
  return sum;
}

export interface SearchSpace {
  valid: number[];
  /** Right digit sum, not divisible — the sim's wrong answers. */
  nearMisses: number[];
}

// Five-digit spaces take ~90k steps to enumerate; every path of every arm asks again.
const SPACE_CACHE = new Map<string, SearchSpace>();
const SPACE_CACHE_LIMIT = 512;

export function searchSpace(problem: DigitSearchProblem): SearchSpace {
  const key = `${problem.digits}:${problem.digitSum}:${problem.divisor}`;
  const cached = SPACE_CACHE.get(key);
  if (cached) return cached;
  const space = enumerate(problem);
  if (SPACE_CACHE.size >= SPACE_CACHE_LIMIT) SPACE_CACHE.delete(SPACE_CACHE.keys().next().value ?? key);
  SPACE_CACHE.set(key, space);
  return space;
}

function enumerate(problem: DigitSearchProblem): SearchSpace {
  const valid: number[] = [];
  const nearMisses: number[] = [];
  const low = problem.digits === 1 ? 0 : 10 ** (problem.digits - 1);
  for (let value = low; value < 10 ** problem.digits; value += 1) {
    if (digitSumOf(value) !== problem.digitSum) continue;
    (value % problem.divisor === 0 ? valid : nearMisses).push(value);
  }
  return { valid, nearMisses };
}

/** Easy when a third or more of the right-digit-sum numbers also divide: hard to miss. */
function kindOf(space: SearchSpace): string {
  const total = space.valid.length + space.nearMisses.length;
  return total > 0 && space.valid.length / total >= 1 / 3 ? 'search:easy' : 'search:hard';
}

export const digitSearchTask: SimTask = {
  name: 'digit-search',
  solve(context: SolveContext): string | undefined {
    const problem = parseDigitSearch(context.userText);
    if (!problem) return undefined;
    const space = searchSpace(problem);
    const competent = context.draw('competence') < accuracyFor(context.profile, kindOf(space));
    // A wrong answer with no near miss to give is an off-by-one digit sum: still wrong.
    const pool = competent && space.valid.length > 0 ? space.valid : space.nearMisses.length > 0 ? space.nearMisses : [10 ** problem.digits - 1];
    const answer = pool[pickIndex(context.draw('pick'), pool.length)] ?? 0;
    if (context.style.terse) return String(answer);
    if (context.style.thorough) {
      return `We need a ${problem.digits}-digit number with digit sum ${problem.digitSum} that is divisible by ${problem.divisor}. Trying candidates with that digit sum, ${answer} fits. Answer: ${answer}`;
    }
    return `Answer: ${answer}`;
  },
};
