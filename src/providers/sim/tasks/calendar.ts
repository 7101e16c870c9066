/** Proleptic Gregorian date arithmetic for the date task, on UTC so no time zone leaks in. */

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const MONTH_NAMES = [
  'january', 'february', 'march', 'april', 'may', 'june',
  'july', 'august', 'september', 'october', 'november', 'december',
] as const;

const DAY_MS = 86_400_000;

/** 1–12 for a full or three-letter month name (`Mar`, `march`, `Sept`), else undefined. */
export function monthFromName(name: string): number | undefined {
  const lower = name.toLowerCase().replace(/\.$/, '');
  if (lower.length < 3) return undefined;
  const index = MONTH_NAMES.findIndex((m) => m.startsWith(lower));
  return index < 0 ? undefined : index + 1;
}

export function isValidDate(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return false;
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The date, or undefined when the parts do not name a real day. */
export function makeDate(year: number, month: number, day: number): CalendarDate | undefined {
  return isValidDate(year, month, day) ? { year, month, day } : undefined;
}

export function formatIso(date: CalendarDate): string {
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

function toEpochDay(date: CalendarDate): number {
  const utc = new Date(0);
  utc.setUTCFullYear(date.year, date.month - 1, date.day);
  return Math.round(utc.getTime() / DAY_MS);
}

function fromEpochDay(epochDay: number): CalendarDate {
  const utc = new Date(epochDay * DAY_MS);
  return { year: utc.getUTCFullYear(), month: utc.getUTCMonth() + 1, day: utc.getUTCDate() };
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  return fromEpochDay(toEpochDay(date) + days);
}

/** 1 = Monday … 7 = Sunday (ISO 8601). */
export function isoWeekday(date: CalendarDate): number {
  const sundayZero = (toEpochDay(date) + 4) % 7; // 1970-01-01 was a Thursday
  return ((sundayZero + 6 + 7) % 7) + 1;
}

/** Day-of-year 1 = January 1; undefined past the year's end. */
export function dateFromOrdinal(year: number, dayOfYear: number): CalendarDate | undefined {
  if (dayOfYear < 1) return undefined;
  const date = addDays({ year, month: 1, day: 1 }, dayOfYear - 1);
  return date.year === year ? date : undefined;
}

/** ISO week date: week 1 is the week (Monday first) holding the year's first Thursday. */
export function dateFromIsoWeek(year: number, week: number, weekday: number): CalendarDate | undefined {
  if (week < 1 || week > 53 || weekday < 1 || weekday > 7) return undefined;
  const jan4 = { year, month: 1, day: 4 };
  const mondayOfWeek1 = addDays(jan4, 1 - isoWeekday(jan4));
  return addDays(mondayOfWeek1, (week - 1) * 7 + (weekday - 1));
}

/** The common misreading without the Thursday rule: week 1 is the week holding January 1. */
export function dateFromNaiveWeek(year: number, week: number, weekday: number): CalendarDate | undefined {
  if (week < 1 || week > 53 || weekday < 1 || weekday > 7) return undefined;
  const jan1 = { year, month: 1, day: 1 };
  const mondayOfWeek1 = addDays(jan1, 1 - isoWeekday(jan1));
  return addDays(mondayOfWeek1, (week - 1) * 7 + (weekday - 1));
}
