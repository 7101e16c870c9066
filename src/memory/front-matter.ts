/**
 * Markdown with optional YAML front matter (`---` … `---`), as skills and `.learnings/`
 * notes are written. Pure: text in, data out; problems are values, not throws.
 */
import { parse, stringify } from 'yaml';

export interface FrontMatterDoc {
  /** The front matter mapping, or undefined when the text has none. */
  data: Record<string, unknown> | undefined;
  /** The Markdown after the front matter. */
  body: string;
  /** Line (1-based) where the body starts. */
  bodyLine: number;
  /** Set when a front matter block exists but is not a YAML mapping. */
  problem: string | undefined;
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;

export function parseFrontMatter(text: string): FrontMatterDoc {
  const open = OPEN.exec(text);
  if (!open) return { data: undefined, body: text, bodyLine: 1, problem: undefined };
  const rest = text.slice(open[0].length);
  const close = /^---[ \t]*(?:\r?\n|$)/m.exec(rest);
  if (!close) return { data: undefined, body: text, bodyLine: 1, problem: 'front matter opened with `---` is never closed by a `---` line' };
  const yamlText = rest.slice(0, close.index);
  const body = rest.slice(close.index + close[0].length);
  const bodyLine = 2 + (yamlText.match(/\n/g)?.length ?? 0) + 1;
  let data: unknown;
  try {
    data = parse(yamlText);
  } catch (error) {
    return { data: undefined, body, bodyLine, problem: `front matter is not valid YAML: ${(error as Error).message.split('\n')[0] ?? ''}` };
  }
  if (data === null || data === undefined) return { data: {}, body, bodyLine, problem: undefined };
  if (typeof data !== 'object' || Array.isArray(data)) return { data: undefined, body, bodyLine, problem: 'front matter must be a YAML mapping of `key: value` lines' };
  return { data: data as Record<string, unknown>, body, bodyLine, problem: undefined };
}

/** `---\n<yaml>---\n<body>`; keys keep the order given. */
export function renderFrontMatter(data: Record<string, unknown>, body: string): string {
  return `---\n${stringify(data, { lineWidth: 0 })}---\n${body.startsWith('\n') ? body.slice(1) : body}`;
}

export function stringField(data: Record<string, unknown> | undefined, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = data?.[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

export function intField(data: Record<string, unknown> | undefined, ...keys: string[]): number | undefined {
  for (const key of keys) {
    const value = data?.[key];
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof number === 'number' && Number.isInteger(number)) return number;
  }
  return undefined;
}
