/** Audit windows and periods (UTC): `--since 90d`, months, ISO weeks. Pure. */

export type PeriodUnit = 'month' | 'week';

export interface Period {
  /** `2026-03` or `2026-W09`. */
  key: string;
  /** First instant of the period (ISO date). */
  start: string;
  /** Ordinal (months or weeks since 1970): the trend test's time axis, gaps kept. */
  index: number;
}

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** 1970-01-05 was a Monday: ISO weeks start on Monday. */
const MONDAY_EPOCH = 4 * DAY_MS;

export function periodOf(time: number, unit: PeriodUnit): Period {
  const date = new Date(time);
  if (unit === 'month') {
    const year = date.getUTCFullYear();
    const month = date.getUTCMonth();
    return { key: `${year}-${String(month + 1).padStart(2, '0')}`, start: new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10), index: (year - 1970) * 12 + month };
  }
  const index = Math.floor((time - MONDAY_EPOCH) / WEEK_MS);
  const monday = new Date(MONDAY_EPOCH + index * WEEK_MS);
  return { key: isoWeekKey(monday), start: monday.toISOString().slice(0, 10), index };
}

function isoWeekKey(monday: Date): string {
  // The ISO year of a week is the year of its Thursday.
  const thursday = new Date(monday.getTime() + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / WEEK_MS) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/**
 * `90d`, `12w`, `6m`, `1y` (before `until`) or an ISO date → the window's start (ms).
 * Months and years are calendar months and years.
 */
export function parseSince(value: string, until: number): number | undefined {
  const match = /^(\d+)\s*([dwmy])$/i.exec(value.trim());
  if (match) {
    const amount = Number(match[1]);
    const unit = (match[2] ?? 'd').toLowerCase();
    if (unit === 'd') return until - amount * DAY_MS;
    if (unit === 'w') return until - amount * WEEK_MS;
    const date = new Date(until);
    const months = unit === 'm' ? amount : amount * 12;
    const year = date.getUTCFullYear();
    const month = date.getUTCMonth() - months;
    // Clamp the day: six months before 31 December is 30 June, not 1 July.
    const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    return Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds());
  }
  const parsed = Date.parse(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** Weekly under ~6 months (so the trend test has enough points), monthly from there. */
export function defaultUnit(since: number, until: number): PeriodUnit {
  return until - since < 180 * DAY_MS ? 'week' : 'month';
}
