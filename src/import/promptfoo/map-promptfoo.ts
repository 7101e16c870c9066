/**
 * A promptfoo results file (`promptfoo eval -o results.json`, results format version 3, as
 * written by promptfoo 0.121) as imported samples, pure.
 *
 * - Variants are promptfoo's columns, `results.prompts[]`: one per (prompt, provider). With
 *   two columns the first is the baseline and the second the candidate; otherwise
 *   `--baseline ID --candidate ID` pick them by prompt label, provider id or label,
 *   `provider/label`, or prompt id (a prefix of 8+ hex digits will do).
 * - Cases are promptfoo tests (`testCase`: description + vars); `--repeat R` runs each test R
 *   times, in consecutive `testIdx`: the k-th run of a test in a column is epoch k.
 * - A case's id is its `description` when every test has a distinct one, else `test-<k>`
 *   (its order of first appearance); `testCase.metadata.category` becomes the category.
 * - `success` is `passed`; a result with `failureReason` 2 (ERROR) failed because of its
 *   `error`, not its assertions. `response.tokenUsage` is the call's usage (zeros with no
 *   usage reported are unknown); `cost` is kept only when positive (promptfoo writes 0 for a
 *   model it has no price for — unknown, not free).
 */
import { didYouMean } from '../../config/did-you-mean.js';
import type { UnifiedFinishReason } from '../../core/finish-reason.js';
import { stableStringify } from '../../core/hash.js';
import { IsobudgetError } from '../../core/errors.js';
import type { ImportedSample, ImportedUsage } from '../imported-run.js';
import { arrayAt, count, isObject, objectAt, text, type JsonObject } from '../json-fields.js';

/** A promptfoo column: a prompt run by a provider. */
export interface PromptfooColumn {
  index: number;
  label: string;
  provider: string;
  promptId: string;
  raw: string;
}

export interface PromptfooImport {
  columns: PromptfooColumn[];
  baseline: PromptfooColumn;
  candidate: PromptfooColumn;
  samples: ImportedSample[];
  version: string | undefined;
  evalId: string | undefined;
  createdAt: string | undefined;
  description: string | undefined;
  /** Assertion types used (e.g. `equals`), the scorer's name. */
  assertions: string[];
}

const HINT = 'pass the file `promptfoo eval -o results.json` wrote (results format version 3)';
/** promptfoo's ResultFailureReason.ERROR. */
const FAILURE_ERROR = 2;

export function mapPromptfoo(json: unknown, file: string, pick: { baseline?: string | undefined; candidate?: string | undefined }): PromptfooImport {
  const top = objectAt(json, file, '', HINT);
  const results = objectAt(top.results, file, 'results', HINT);
  const version = count(results.version);
  if (version !== 3) throw new IsobudgetError('import_version', `results format version ${String(results.version)} is not supported (this reads version 3)`, { location: { file, key: 'results.version' }, hint: 'write the file with promptfoo 0.121 (`promptfoo eval -o results.json`)' });
  const columns = arrayAt(results.prompts, file, 'results.prompts', HINT).map((entry, index): PromptfooColumn => {
    const prompt = objectAt(entry, file, `results.prompts[${index}]`, HINT);
    return { index, label: text(prompt.label) ?? `prompt-${index + 1}`, provider: text(prompt.provider) ?? 'unknown', promptId: text(prompt.id) ?? '', raw: text(prompt.raw) ?? '' };
  });
  const { baseline, candidate } = pickColumns(columns, pick, file);
  const rows = arrayAt(results.results, file, 'results.results', HINT).map((row, i) => objectAt(row, file, `results.results[${i}]`, HINT));
  const caseIds = caseIdsOf(rows);
  const seen = new Map<string, number>();
  const samples: ImportedSample[] = [];
  const assertions = new Set<string>();
  const ordered = rows.map((row, i) => ({ row, i })).sort((a, b) => (count(a.row.testIdx) ?? a.i) - (count(b.row.testIdx) ?? b.i));
  for (const { row, i } of ordered) {
    const column = count(row.promptIdx);
    if (column !== baseline.index && column !== candidate.index) continue;
    const key = testKey(row);
    const caseId = caseIds.get(key) as string;
    const seenKey = `${column}|${key}`;
    const epoch = seen.get(seenKey) ?? 0;
    seen.set(seenKey, epoch + 1);
    const test = isObject(row.testCase) ? row.testCase : {};
    if (Array.isArray(test.assert)) for (const a of test.assert) if (isObject(a) && typeof a.type === 'string') assertions.add(a.type);
    samples.push(sampleOf(row, i, file, column === baseline.index ? baseline : candidate, column === baseline.index ? 'baseline' : 'candidate', caseId, epoch));
  }
  const metadata = isObject(top.metadata) ? top.metadata : {};
  const config = isObject(top.config) ? top.config : {};
  return {
    columns, baseline, candidate, samples,
    version: text(metadata.promptfooVersion), evalId: text(top.evalId), createdAt: text(results.timestamp), description: text(config.description),
    assertions: [...assertions].sort(),
  };
}

/** The names a column answers to, most specific last. */
function namesOf(column: PromptfooColumn): string[] {
  return [column.label, column.provider, `${column.provider}/${column.label}`, column.promptId];
}

function pickColumns(columns: PromptfooColumn[], pick: { baseline?: string | undefined; candidate?: string | undefined }, file: string): { baseline: PromptfooColumn; candidate: PromptfooColumn } {
  const ids = [...new Set(columns.flatMap((c) => [c.label, c.provider, `${c.provider}/${c.label}`]))];
  const find = (id: string, flag: string): PromptfooColumn => {
    const exact = columns.filter((c) => namesOf(c).includes(id));
    const matches = exact.length > 0 ? exact : /^[0-9a-f]{8,}$/.test(id) ? columns.filter((c) => c.promptId.startsWith(id)) : [];
    if (matches.length === 1) return matches[0] as PromptfooColumn;
    if (matches.length > 1) throw new IsobudgetError('usage', `${flag} ${id} names ${matches.length} promptfoo columns (${matches.map((c) => `${c.provider}/${c.label}`).join(', ')})`, { location: { file }, hint: `name one as provider/label, e.g. ${flag} ${matches[0]?.provider}/${matches[0]?.label}` });
    const guess = didYouMean(id, ids);
    throw new IsobudgetError('usage', `${flag} ${id} is not a prompt or provider of this eval${guess ? `; did you mean '${guess}'?` : ''}`, { location: { file }, hint: `the ids present: ${ids.join(', ')}` });
  };
  if (columns.length < 2 && (pick.baseline === undefined || pick.candidate === undefined)) {
    throw new IsobudgetError('import_one_variant', `the eval has ${columns.length} prompt × provider column(s): a comparison needs a baseline and a candidate`, { location: { file, key: 'results.prompts' }, hint: 'run promptfoo with two prompts (or two providers)' });
  }
  if (pick.baseline === undefined && pick.candidate === undefined) {
    if (columns.length !== 2) throw new IsobudgetError('usage', `the eval has ${columns.length} prompt × provider columns: say which two to compare with --baseline ID --candidate ID`, { location: { file }, hint: `the ids present: ${ids.join(', ')}` });
    return { baseline: columns[0] as PromptfooColumn, candidate: columns[1] as PromptfooColumn };
  }
  const baseline = pick.baseline === undefined ? undefined : find(pick.baseline, '--baseline');
  const candidate = pick.candidate === undefined ? undefined : find(pick.candidate, '--candidate');
  const other = (chosen: PromptfooColumn, flag: string): PromptfooColumn => {
    const rest = columns.filter((c) => c !== chosen);
    if (rest.length !== 1) throw new IsobudgetError('usage', `the eval has ${columns.length} columns: pass ${flag} ID too`, { location: { file }, hint: `the ids present: ${ids.join(', ')}` });
    return rest[0] as PromptfooColumn;
  };
  const b = baseline ?? other(candidate as PromptfooColumn, '--baseline');
  const c = candidate ?? other(b, '--candidate');
  if (b === c) throw new IsobudgetError('usage', `--baseline and --candidate name the same column (${b.provider}/${b.label})`, { location: { file }, hint: `the ids present: ${ids.join(', ')}` });
  return { baseline: b, candidate: c };
}

function testKey(row: JsonObject): string {
  const test = isObject(row.testCase) ? row.testCase : {};
  return stableStringify({ description: test.description, vars: test.vars ?? row.vars });
}

function caseIdsOf(rows: JsonObject[]): Map<string, string> {
  const keys = [...new Set(rows.map(testKey))];
  const descriptions = keys.map((k) => (JSON.parse(k) as { description?: unknown }).description);
  const distinct = descriptions.every((d) => typeof d === 'string' && d !== '') && new Set(descriptions).size === keys.length;
  return new Map(keys.map((k, i) => [k, distinct ? (descriptions[i] as string) : `test-${i + 1}`]));
}

function sampleOf(row: JsonObject, i: number, file: string, column: PromptfooColumn, variant: 'baseline' | 'candidate', caseId: string, epoch: number): ImportedSample {
  const response = isObject(row.response) ? row.response : undefined;
  const test = isObject(row.testCase) ? row.testCase : {};
  const metadata = isObject(test.metadata) ? test.metadata : {};
  const failedByError = row.failureReason === FAILURE_ERROR;
  if (typeof row.success !== 'boolean') throw new IsobudgetError('import_shape', `success must be true or false, got ${JSON.stringify(row.success)}`, { location: { file, key: `results.results[${i}].success` }, hint: HINT });
  const output = response?.output;
  const usage = usageOf(response?.tokenUsage);
  const cost = count(row.cost);
  const score = count(row.score);
  const finish = finishOf(failedByError ? undefined : text(response?.finishReason));
  return {
    caseId, category: text(metadata.category), variant, epoch, passed: row.success, score: score !== undefined && score <= 1 ? score : undefined,
    output: typeof output === 'string' ? output : output === undefined ? '' : JSON.stringify(output),
    model: modelOf(column.provider), baseUrl: `promptfoo:${column.provider}`,
    // A result with no response made no call promptfoo could record (e.g. a provider error before it).
    calls: response === undefined ? [] : [usage],
    costUsd: cost !== undefined && cost > 0 ? cost : undefined,
    latencyMs: count(row.latencyMs) ?? count(response?.latencyMs),
    finishReason: failedByError ? 'error' : finish.unified, finishReasonRaw: failedByError ? 'error' : finish.raw,
    error: failedByError ? (text(row.error) ?? 'promptfoo recorded an error') : undefined,
  };
}

function usageOf(value: unknown): ImportedUsage {
  const usage = isObject(value) ? value : {};
  const details = isObject(usage.completionDetails) ? usage.completionDetails : {};
  return { prompt: count(usage.prompt), completion: count(usage.completion), total: count(usage.total), cached: count(usage.cached), reasoning: count(details.reasoning) };
}

/** `openai:chat:gpt-4o-mini` → `gpt-4o-mini`: the model is the provider id's last part. */
function modelOf(provider: string): string {
  const parts = provider.split(':');
  return parts.length >= 3 ? parts.slice(2).join(':') : provider;
}

const FINISH: Record<string, UnifiedFinishReason> = { stop: 'stop', length: 'length', tool_calls: 'tool_calls', function_call: 'tool_calls', max_tokens: 'length', end_turn: 'stop', tool_use: 'tool_calls' };

function finishOf(raw: string | undefined): { unified: UnifiedFinishReason; raw: string | undefined } {
  return { unified: (raw !== undefined ? FINISH[raw] : undefined) ?? 'stop', raw };
}
