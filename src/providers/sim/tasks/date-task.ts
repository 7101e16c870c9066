/**
 * Date normalization: "Normalize this date to ISO 8601 (YYYY-MM-DD): 03/04/2021".
 * The sim tells the format family from the literal's shape, then reads it the way the
 * skill's rules say. Without a rule it does what a model without one does: takes the only
 * valid reading when there is one, otherwise guesses (day/month order, century) or misreads
 * (week and ordinal dates as months).
 */
import { accuracyFor } from '../profiles.js';
import type { SimTask, SolveContext } from './spec.js';
import { readDateRules, type DateRules, type PartOrder } from './date-rules.js';
import {
  addDays, dateFromIsoWeek, dateFromNaiveWeek, dateFromOrdinal, formatIso, makeDate, monthFromName,
  type CalendarDate,
} from './calendar.js';

export type DateFamily =
  | 'iso' | 'slash' | 'dot' | 'compact' | 'month-name' | 'day-month-name'
  | 'two-digit-year' | 'iso-week' | 'ordinal-date';

export interface DateReading {
  family: DateFamily;
  /** What the model answers before any slip; undefined when it cannot read the literal. */
  date: CalendarDate | undefined;
  /** A one-line account of how it read the literal, for non-terse answers. */
  how: string;
}

type Draw = (label: string) => number;

const MDY: PartOrder = ['M', 'D', 'Y'];
const DMY: PartOrder = ['D', 'M', 'Y'];
const YMD: PartOrder = ['Y', 'M', 'D'];
const YDM: PartOrder = ['Y', 'D', 'M'];

const NAMED_MONTH_FIRST = /^([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+('?\d{2}|\d{4})$/;
const NAMED_DAY_FIRST = /^(\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?[\s-]+([A-Za-z]+)\.?,?[\s-]+('?\d{2}|\d{4})$/;

/** The date literal: whatever follows the last colon of the user message, without quotes. */
export function extractDateLiteral(userText: string, skill = ''): string | undefined {
  // The target format may be named by the request or only by the skill.
  if (!/\bdate\b/i.test(userText) || !/YYYY-MM-DD|\bISO\b/i.test(`${userText}\n${skill}`)) return undefined;
  const match = /:\s*([^:\n]+?)\s*$/.exec(userText.trim());
  const literal = match?.[1]?.replace(/^[`"']|[`"'.]$/g, '').trim();
  return literal === undefined || literal === '' ? undefined : literal;
}

export function readDate(literal: string, rules: DateRules, draw: Draw): DateReading {
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(literal))) {
    return { family: 'iso', date: makeDate(num(m[1]), num(m[2]), num(m[3])), how: 'already year-month-day' };
  }
  if ((m = /^(\d{4})-?W(\d{2})-?(\d)$/i.exec(literal))) return readWeek(num(m[1]), num(m[2]), num(m[3]), rules);
  if ((m = /^(\d{4})-?(\d{3})$/.exec(literal))) return readOrdinal(m[1] ?? '', m[2] ?? '', rules);
  if ((m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(literal))) {
    return readOrdered('slash', [num(m[1]), num(m[2]), num(m[3])], rules.slash, [MDY, DMY], draw);
  }
  if ((m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(literal))) {
    return readOrdered('dot', [num(m[1]), num(m[2]), num(m[3])], rules.dot, [DMY, MDY], draw);
  }
  if ((m = /^(\d{8})$/.exec(literal))) return readCompact(m[1] ?? '', rules.compact, draw);
  if ((m = NAMED_MONTH_FIRST.exec(literal))) return readNamed('month-name', m[1], m[2], m[3], rules, draw);
  if ((m = NAMED_DAY_FIRST.exec(literal))) return readNamed('day-month-name', m[2], m[1], m[3], rules, draw);
  return { family: 'iso', date: undefined, how: 'unrecognized format' };
}

function num(text: string | undefined): number {
  return Number(text ?? Number.NaN);
}

function byOrder(values: readonly [number, number, number], order: PartOrder): CalendarDate | undefined {
  const at = (part: 'Y' | 'M' | 'D') => values[order.indexOf(part)] ?? Number.NaN;
  return makeDate(at('Y'), at('M'), at('D'));
}

/** Follows the rule's order if it yields a real date; else the only valid order; else a guess. */
function readOrdered(
  family: DateFamily, values: readonly [number, number, number], rule: PartOrder | undefined,
  guesses: readonly PartOrder[], draw: Draw,
): DateReading {
  const ruled = rule ? byOrder(values, rule) : undefined;
  if (ruled) return { family, date: ruled, how: `read as ${rule?.join('/')} per the rules` };
  const valid = guesses.map((order) => ({ order, date: byOrder(values, order) })).filter((g) => g.date !== undefined);
  const pick = valid.length > 1 ? valid[draw('guess') < 0.5 ? 0 : 1] : valid[0];
  return { family, date: pick?.date, how: pick ? `read as ${pick.order.join('/')}` : 'no valid reading' };
}

function readCompact(digits: string, rule: PartOrder | undefined, draw: Draw): DateReading {
  const split = (order: PartOrder): [number, number, number] => {
    let offset = 0;
    const values = order.map((part) => {
      const width = part === 'Y' ? 4 : 2;
      const value = Number(digits.slice(offset, offset + width));
      offset += width;
      return value;
    });
    return [values[0] ?? Number.NaN, values[1] ?? Number.NaN, values[2] ?? Number.NaN];
  };
  if (rule) {
    const date = byOrder(split(rule), rule);
    if (date) return { family: 'compact', date, how: `read as ${rule.join('')} per the rules` };
  }
  const valid = [YMD, YDM].map((order) => ({ order, date: byOrder(split(order), order) })).filter((g) => g.date);
  const pick = valid.length > 1 ? valid[draw('guess') < 0.5 ? 0 : 1] : valid[0];
  return { family: 'compact', date: pick?.date, how: pick ? `read as ${pick.order.join('')}` : 'no valid reading' };
}

function readNamed(
  family: DateFamily, monthName: string | undefined, dayText: string | undefined, yearText: string | undefined,
  rules: DateRules, draw: Draw,
): DateReading {
  const month = monthFromName(monthName ?? '');
  const day = num(dayText);
  const yearDigits = (yearText ?? '').replace("'", '');
  if (yearDigits.length === 4) return { family, date: month ? makeDate(num(yearDigits), month, day) : undefined, how: 'month named' };
  const yy = num(yearDigits);
  const rule = rules.twoDigitYear;
  const century = rule
    ? (yy <= rule.pivot ? rule.lowCentury : rule.highCentury)
    : (draw('guess') < 0.5 ? 1900 : 2000);
  const how = rule ? `two-digit year, pivot ${rule.pivot}` : 'two-digit year, century guessed';
  return { family: 'two-digit-year', date: month ? makeDate(century + yy, month, day) : undefined, how };
}

function readWeek(year: number, week: number, weekday: number, rules: DateRules): DateReading {
  if (rules.isoWeek === 'iso') return { family: 'iso-week', date: dateFromIsoWeek(year, week, weekday), how: 'ISO week date, first-Thursday rule' };
  if (rules.isoWeek === 'naive') return { family: 'iso-week', date: dateFromNaiveWeek(year, week, weekday), how: 'week date counted from January 1' };
  // No rule: "W09-4" looks like month 09, day 4; past week 12, weeks get counted from January 1.
  const misread = makeDate(year, week, weekday) ?? dateFromOrdinal(year, (week - 1) * 7 + weekday);
  return { family: 'iso-week', date: misread, how: 'read the week as a month' };
}

function readOrdinal(yearText: string, dayText: string, rules: DateRules): DateReading {
  const year = Number(yearText);
  if (rules.ordinalDate) return { family: 'ordinal-date', date: dateFromOrdinal(year, Number(dayText)), how: 'day of the year' };
  // No rule: "063" looks like month 06, day 3.
  const misread = makeDate(year, Number(dayText.slice(0, 2)), Number(dayText.slice(2)));
  return { family: 'ordinal-date', date: misread ?? dateFromOrdinal(year, Number(dayText) - 1), how: 'read the digits as month and day' };
}

/** A plausible wrong answer: the slips people make with each family. */
function slip(date: CalendarDate, family: DateFamily, draw: Draw): CalendarDate {
  if (family === 'iso-week') return addDays(date, draw('slip') < 0.5 ? -7 : 7);
  if (family === 'ordinal-date') return addDays(date, -1);
  if (date.day <= 12 && date.day !== date.month) return { year: date.year, month: date.day, day: date.month };
  return addDays(date, draw('slip') < 0.5 ? -1 : 1);
}

export const dateTask: SimTask = {
  name: 'date',
  solve(context: SolveContext): string | undefined {
    const literal = extractDateLiteral(context.userText, context.skill);
    if (literal === undefined) return undefined;
    const reading = readDate(literal, readDateRules(context.skill), context.draw);
    if (!reading.date) return context.style.terse ? 'unknown' : `I could not read "${literal}" as a date.`;
    const competent = context.draw('competence') < accuracyFor(context.profile, `date:${reading.family}`);
    const answer = formatIso(competent ? reading.date : slip(reading.date, reading.family, context.draw));
    if (context.style.terse) return answer;
    if (context.style.thorough) {
      return `The input "${literal}" is a ${reading.family} date (${reading.how}). Writing year, month and day in ISO 8601 order gives ${answer}.`;
    }
    return `The normalized date is ${answer}.`;
  },
};
