/**
 * The date rules a skill can state, read line by line. A line is about a format family when
 * it names it ("slash dates", "two-digit years", …); what it says about that family (field
 * order, century pivot, the ISO week rule) is then read from the same line. The sim follows
 * whatever the rule says, right or wrong for the data — that is what makes skills matter.
 */

export type DatePart = 'Y' | 'M' | 'D';
export type PartOrder = readonly [DatePart, DatePart, DatePart];

export interface TwoDigitYearRule {
  /** Two-digit years ≤ pivot take `lowCentury`, the rest `highCentury` (e.g. 49, 2000, 1900). */
  pivot: number;
  lowCentury: number;
  highCentury: number;
}

export interface DateRules {
  slash: PartOrder | undefined;
  dot: PartOrder | undefined;
  compact: PartOrder | undefined;
  twoDigitYear: TwoDigitYearRule | undefined;
  /** `iso`: week 1 holds the first Thursday; `naive`: the rule named week dates but not how. */
  isoWeek: 'iso' | 'naive' | undefined;
  ordinalDate: boolean;
}

const FAMILY = {
  slash: /\bslash(?:es|ed)?\b/i,
  dot: /\bdot(?:s|ted)?\b|\bperiods?\b/i,
  compact: /\bcompact\b|\b(?:eight|8)[- ]digit\b/i,
  twoDigitYear: /\b(?:two|2)[- ]digit years?\b/i,
  isoWeek: /\bweek dates?\b|\bISO weeks?\b/i,
  ordinalDate: /\bordinal dates?\b|\bday[- ]of[- ](?:the[- ])?year\b/i,
} as const;

const FORMAT_TOKEN = /\b(YYYY|MM|DD)[/.-]?(YYYY|MM|DD)[/.-]?(YYYY|MM|DD)\b/;

export function readDateRules(skill: string): DateRules {
  const rules: DateRules = {
    slash: undefined,
    dot: undefined,
    compact: undefined,
    twoDigitYear: undefined,
    isoWeek: undefined,
    ordinalDate: false,
  };
  for (const line of skill.split('\n')) {
    if (FAMILY.slash.test(line)) rules.slash = readOrder(line) ?? rules.slash;
    if (FAMILY.dot.test(line)) rules.dot = readOrder(line) ?? rules.dot;
    if (FAMILY.compact.test(line)) rules.compact = readOrder(line) ?? rules.compact;
    if (FAMILY.twoDigitYear.test(line)) rules.twoDigitYear = readPivot(line) ?? rules.twoDigitYear;
    if (FAMILY.isoWeek.test(line)) rules.isoWeek = /\bthursday\b|\bjan(?:uary)?\.? 4\b/i.test(line) ? 'iso' : 'naive';
    if (FAMILY.ordinalDate.test(line)) rules.ordinalDate = true;
  }
  return rules;
}

/** Field order from a format token (`MM/DD/YYYY`) or, failing that, "month first"/"day first". */
function readOrder(line: string): PartOrder | undefined {
  const token = FORMAT_TOKEN.exec(line);
  if (token) {
    const parts = [token[1], token[2], token[3]].map((t) => (t ?? '').charAt(0) as DatePart);
    const [a, b, c] = parts;
    if (a && b && c && new Set(parts).size === 3) return [a, b, c];
  }
  if (/\bmonth first\b/i.test(line)) return ['M', 'D', 'Y'];
  if (/\bday first\b/i.test(line)) return ['D', 'M', 'Y'];
  if (/\byear first\b/i.test(line)) return ['Y', 'M', 'D'];
  return undefined;
}

/** "00–49 → 20xx, 50–99 → 19xx" (any dash or "to"); the century named after the low range wins. */
function readPivot(line: string): TwoDigitYearRule | undefined {
  const low = /\b00\s*(?:-|–|—|to)\s*(\d{2})\b([^,;]*)/.exec(line);
  if (low?.[1] !== undefined) {
    const pivot = Number(low[1]);
    const lowCentury = /\b19/.test(low[2] ?? '') ? 1900 : 2000;
    return { pivot, lowCentury, highCentury: lowCentury === 2000 ? 1900 : 2000 };
  }
  const high = /\b(\d{2})\s*(?:-|–|—|to)\s*99\b([^,;]*)/.exec(line);
  if (high?.[1] !== undefined) {
    const highCentury = /\b20/.test(high[2] ?? '') ? 2000 : 1900;
    return { pivot: Number(high[1]) - 1, lowCentury: highCentury === 1900 ? 2000 : 1900, highCentury };
  }
  return undefined;
}
