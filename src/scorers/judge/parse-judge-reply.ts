/**
 * Reads a judge's reply into 0–1 scores per dimension, pure and forgiving about form — JSON
 * (also in fences), `Score: 7/10`, `correctness: 0.8` lines, PASS/FAIL — but never guessing:
 * a reply with no score for the deciding dimension is unusable and says why.
 */
import { extractJson } from '../extract-json.js';

export type ParsedJudgeReply = { ok: true; dimensions: Record<string, number>; rationale: string } | { ok: false; error: string };

export function parseJudgeReply(text: string, dimensions: readonly string[]): ParsedJudgeReply {
  const primary = dimensions[0] ?? 'correctness';
  const found: Record<string, number> = {};
  let rationale = '';
  const json = extractJson(text);
  if (json.found && typeof json.value === 'object' && json.value !== null && !Array.isArray(json.value)) {
    const object = json.value as Record<string, unknown>;
    for (const [key, value] of Object.entries(object)) {
      const score = toUnit(value);
      if (score !== undefined) found[key.toLowerCase()] = score;
    }
    const why = object.rationale ?? object.reason ?? object.explanation;
    if (typeof why === 'string') rationale = why;
  } else {
    for (const match of text.matchAll(/^\s*([A-Za-z_ ]{2,40}?)\s*[:=]\s*([0-9.]+)\s*(?:\/\s*(10|100|5|1))?/gm)) {
      const score = toUnit(Number(match[2]), match[3] === undefined ? undefined : Number(match[3]));
      if (score !== undefined) found[(match[1] ?? '').trim().toLowerCase().replace(/\s+/g, '_')] = score;
    }
    if (/^\s*PASS\b/i.test(text)) found[primary] ??= 1;
    if (/^\s*FAIL\b/i.test(text)) found[primary] ??= 0;
    rationale = /(?:reason|rationale)\s*:\s*(.+)/i.exec(text)?.[1]?.trim() ?? '';
  }
  // A bare overall score stands for the deciding dimension.
  if (found[primary] === undefined && found.score !== undefined) found[primary] = found.score;
  if (found[primary] === undefined) {
    const preview = text.length > 120 ? `${text.slice(0, 120)}…` : text;
    return { ok: false, error: `judge reply has no ${primary} score: ${JSON.stringify(preview)}` };
  }
  const result: Record<string, number> = {};
  for (const dimension of dimensions) if (found[dimension] !== undefined) result[dimension] = found[dimension];
  return { ok: true, dimensions: result, rationale };
}

/** 0–1 as is; 0–10, 0–100 (or an explicit scale) rescaled; anything else undefined. */
function toUnit(value: unknown, scale?: number): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number) || number < 0) return undefined;
  if (scale !== undefined) return number <= scale ? number / scale : undefined;
  if (number <= 1) return number;
  if (number <= 10) return number / 10;
  if (number <= 100) return number / 100;
  return undefined;
}
