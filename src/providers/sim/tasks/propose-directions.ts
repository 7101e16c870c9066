/**
 * What the simulated proposers would change. `sim-proposer` reads the failures it is shown:
 * for date normalization it names each failing format family, infers the rule the expected
 * answers follow (field order, century pivot, the ISO week rule), and proposes the rule line a
 * skill lacks — a real effect on the sim, which follows rules written in the skill. One of its
 * directions is "try several readings and pick", which only makes Best-of-N paths differ (it
 * helps only at n=N: `budget_leakage`). `sim-proposer-null` makes cosmetic edits that no sim
 * task reads: no effect at all.
 */
import { readDateRules, type DateRules } from './date-rules.js';
import { extractDateLiteral, readDate, type DateFamily } from './date-task.js';
import type { ShownFailure } from './propose-request.js';

export interface Direction {
  /** Lines to add under the skill's rules. */
  lines: string[];
  summary: string;
}

export const LEAKAGE_LINE = '- When a date can be read more than one way, try several readings and pick one: diversify the reading on each attempt.';

type RuleFamily = Exclude<DateFamily, 'iso' | 'month-name' | 'day-month-name'>;
/** Families whose misreading is a coin flip without a rule: where trying several readings pays at n=N. */
const AMBIGUOUS: readonly RuleFamily[] = ['slash', 'dot', 'compact', 'two-digit-year'];
const ORDER: readonly RuleFamily[] = ['iso-week', 'ordinal-date', 'two-digit-year', 'slash', 'dot', 'compact'];

export function dateDirections(skill: string, failures: readonly ShownFailure[]): Direction[] {
  const rules = readDateRules(skill);
  const counts = new Map<RuleFamily, ShownFailure[]>();
  for (const failure of failures) {
    const literal = extractDateLiteral(failure.input, skill);
    if (literal === undefined) continue;
    const family = readDate(literal, rules, () => 0.5).family;
    if (!isRuleFamily(family) || hasRule(rules, family)) continue;
    counts.set(family, [...(counts.get(family) ?? []), failure]);
  }
  const families = [...counts.keys()].sort((a, b) => (counts.get(b)?.length ?? 0) - (counts.get(a)?.length ?? 0) || ORDER.indexOf(a) - ORDER.indexOf(b));
  const directions: Direction[] = families.map((family) => ({
    lines: [ruleLine(family, counts.get(family) ?? [])],
    summary: `Add the rule for ${FAMILY_NAMES[family]} (${counts.get(family)?.length ?? 0} of the failures shown)`,
  }));
  if (families.some((f) => AMBIGUOUS.includes(f))) {
    // Second in line: the tempting direction when answers look like coin flips.
    directions.splice(Math.min(1, directions.length), 0, { lines: [LEAKAGE_LINE], summary: 'Ambiguous dates: try several readings and pick one (diversify the attempts)' });
  }
  return directions;
}

const FAMILY_NAMES: Record<RuleFamily, string> = {
  slash: 'slash dates', dot: 'dotted dates', compact: 'compact eight-digit dates', 'two-digit-year': 'two-digit years', 'iso-week': 'ISO week dates', 'ordinal-date': 'ordinal dates',
};

function isRuleFamily(family: DateFamily): family is RuleFamily {
  return (ORDER as readonly string[]).includes(family);
}

function hasRule(rules: DateRules, family: RuleFamily): boolean {
  switch (family) {
    case 'slash': return rules.slash !== undefined;
    case 'dot': return rules.dot !== undefined;
    case 'compact': return rules.compact !== undefined;
    case 'two-digit-year': return rules.twoDigitYear !== undefined;
    case 'iso-week': return rules.isoWeek === 'iso';
    case 'ordinal-date': return rules.ordinalDate;
  }
}

/** The rule the shown answers follow, without quoting any of them. */
function ruleLine(family: RuleFamily, shown: readonly ShownFailure[]): string {
  switch (family) {
    case 'iso-week': return '- ISO week dates (`YYYY-Www-D`): week 1 is the week that holds the year\'s first Thursday; day 1 = Monday.';
    case 'ordinal-date': return '- Ordinal dates (`YYYY-DDD`): DDD is the day of the year, 001 = January 1.';
    case 'two-digit-year': return `- Two-digit years: 00–${pad(pivotOf(shown))} → 20xx, ${pad(pivotOf(shown) + 1)}–99 → 19xx.`;
    case 'slash': return monthFirst(shown, /(\d{1,2})\/(\d{1,2})\/(\d{4})/) ? '- Slash dates are `MM/DD/YYYY`: month first.' : '- Slash dates are `DD/MM/YYYY`: day first.';
    case 'dot': return monthFirst(shown, /(\d{1,2})\.(\d{1,2})\.(\d{4})/) ? '- Dotted dates are `MM.DD.YYYY`: month first.' : '- Dotted dates are `DD.MM.YYYY`: day first.';
    case 'compact': return dayBeforeMonthCompact(shown) ? '- Compact eight-digit dates are `YYYYDDMM`.' : '- Compact eight-digit dates are `YYYYMMDD`.';
  }
}

/** Whether the expected answers read the first field as the month (ties: month first). */
function monthFirst(shown: readonly ShownFailure[], pattern: RegExp): boolean {
  let month = 0;
  let day = 0;
  for (const failure of shown) {
    const m = pattern.exec(failure.input);
    const expectedMonth = Number(failure.expected.slice(5, 7));
    if (!m || !Number.isFinite(expectedMonth)) continue;
    if (Number(m[1]) === expectedMonth && Number(m[2]) !== expectedMonth) month += 1;
    if (Number(m[2]) === expectedMonth && Number(m[1]) !== expectedMonth) day += 1;
  }
  return month >= day;
}

function dayBeforeMonthCompact(shown: readonly ShownFailure[]): boolean {
  return shown.some((f) => {
    const digits = /(\d{8})/.exec(f.input)?.[1];
    return digits !== undefined && digits.slice(6, 8) === f.expected.slice(5, 7) && digits.slice(4, 6) !== f.expected.slice(5, 7);
  });
}

/** The largest two-digit year the answers put in the 2000s (49 when they do not say). */
function pivotOf(shown: readonly ShownFailure[]): number {
  let pivot = -1;
  let lowestNineteen = 100;
  for (const failure of shown) {
    const yy = /'?(\d{2})\s*$/.exec(failure.input.trim())?.[1];
    const century = failure.expected.slice(0, 2);
    if (yy === undefined) continue;
    if (century === '20') pivot = Math.max(pivot, Number(yy));
    if (century === '19') lowestNineteen = Math.min(lowestNineteen, Number(yy));
  }
  return pivot >= 0 && pivot < lowestNineteen ? Math.max(pivot, Math.min(49, lowestNineteen - 1)) : 49;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** Cosmetic lines no sim task reads (no style, format or date-rule words): edits with no effect. */
const NEUTRAL_LINES = [
  'Read the whole request before you start.',
  'Keep your wording plain.',
  'Stay calm with unusual requests.',
  'Take care with each character you write.',
  'Prefer clarity over cleverness.',
  'Treat every request with equal care.',
  'Keep the tone neutral and polite.',
  'Work carefully and without haste.',
  'Focus on the task in front of you.',
  'Avoid guessing the intent of the user beyond the request.',
  'Be consistent from one request to the next.',
  'Mind the details of the request.',
  'Respect the conventions stated above.',
  'Handle each request independently of earlier ones.',
  'Aim for correctness before speed.',
  'Do not add commentary about yourself.',
  'Ignore irrelevant decoration in the request.',
  'Remain precise under pressure.',
  'Double-check your result once.',
  'Leave no trailing punctuation.',
  'Keep capitalization as specified.',
  'Use the conventions above as written.',
  'Stay on topic at all times.',
  'Assume the request is well meant.',
  'Trust the instructions above over habit.',
  'Prefer the simplest correct result.',
  'Keep formatting tidy.',
  'Think before writing.',
];

export function nullDirections(skill: string, tried: readonly string[]): Direction[] {
  const used = new Set([...skill.split('\n'), ...tried].map((line) => line.replace(/^[-*]\s*/, '').trim()));
  return NEUTRAL_LINES.filter((line) => !used.has(line)).map((line) => ({ lines: [`- ${line}`], summary: `Wording: "${line}"` }));
}
