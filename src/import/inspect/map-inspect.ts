/**
 * An inspect_ai EvalLog (log schema version 2: `eval`, `results`, `stats`, `samples[]`) as
 * imported samples of one variant, pure. Field names follow inspect_ai's `EvalLog`,
 * `EvalSpec`, `EvalSample`, `Score` and `ModelUsage` (src/inspect_ai/log/_log.py,
 * src/inspect_ai/model/_model_output.py).
 *
 * - A case is a sample `id`; `epoch` (1-based in inspect) − 1 is the epoch.
 * - `passed` is full credit on the chosen scorer (`--scorer`, else each sample's first):
 *   `C` (CORRECT), `true`, `yes`, or a number ≥ 1; `P`, `I`, `N`, 0.5 … are failures. The
 *   value as a number in [0, 1] (C 1, P 0.5, I/N 0) is kept as the path's score.
 * - Usage: one call record per model in the sample's `model_usage`, else `output.usage`.
 *   Prompt tokens are `input_tokens + input_tokens_cache_read + input_tokens_cache_write`
 *   (inspect's `input_tokens` excludes the cached ones); a usage of all zeros is unknown.
 *   `total_cost` (USD) is the cost when present.
 * - A sample with an `error` failed because of it (finish reason `error`).
 */
import type { UnifiedFinishReason } from '../../core/finish-reason.js';
import { IsobudgetError } from '../../core/errors.js';
import type { ImportedSample, ImportedUsage } from '../imported-run.js';
import { arrayAt, count, isObject, objectAt, text, type JsonObject } from '../json-fields.js';

export interface InspectLog {
  /** The header: every EvalLog field but `samples` (`header.json` of a `.eval`). */
  header: JsonObject;
  samples: JsonObject[];
}

export interface InspectVariant {
  samples: ImportedSample[];
  model: string;
  task: string;
  evalId: string | undefined;
  createdAt: string | undefined;
  version: string | undefined;
  scorer: string;
}

const HINT = 'pass an inspect_ai log: LOG.eval, or LOG.json (`inspect log convert --to json`)';

export function mapInspect(log: InspectLog, file: string, variant: 'baseline' | 'candidate', options: { scorer?: string | undefined }): InspectVariant {
  const spec = objectAt(log.header.eval, file, 'eval', HINT);
  const model = text(spec.model) ?? 'unknown';
  if (log.header.status !== undefined && log.header.status !== 'success') {
    throw new IsobudgetError('import_incomplete', `the eval's status is ${JSON.stringify(log.header.status)}, not "success": its samples are not all there`, { location: { file, key: 'status' }, hint: 'import a finished eval (inspect eval-retry completes one)' });
  }
  if (log.samples.length === 0) throw new IsobudgetError('import_empty', 'the log has no samples', { location: { file, key: 'samples' }, hint: 'inspect writes samples unless --no-log-samples; rerun without it' });
  const scorers = new Set<string>();
  const samples = log.samples.map((sample, i) => {
    const key = `samples[${i}]`;
    const id = sample.id;
    if (typeof id !== 'string' && typeof id !== 'number') throw new IsobudgetError('import_shape', 'id must be a string or a number', { location: { file, key: `${key}.id` }, hint: HINT });
    const epoch = count(sample.epoch) ?? 1;
    const scores = isObject(sample.scores) ? sample.scores : {};
    const scorer = options.scorer ?? Object.keys(scores)[0];
    const error = isObject(sample.error) ? (text(sample.error.message) ?? 'inspect recorded an error') : undefined;
    if (scorer === undefined && error === undefined) throw new IsobudgetError('import_shape', 'the sample has no scores', { location: { file, key: `${key}.scores` }, hint: 'import a scored log (inspect score LOG re-scores one)' });
    const score = scorer === undefined ? undefined : scores[scorer];
    if (scorer !== undefined && score === undefined && error === undefined) {
      throw new IsobudgetError('usage', `sample ${id} (epoch ${epoch}) has no score from ${scorer}`, { location: { file, key: `${key}.scores` }, hint: `the scorers present: ${Object.keys(scores).join(', ') || 'none'}` });
    }
    if (scorer !== undefined) scorers.add(scorer);
    const value = isObject(score) ? scoreValue(score.value) : undefined;
    const output = isObject(sample.output) ? sample.output : {};
    const choice = Array.isArray(output.choices) && isObject(output.choices[0]) ? output.choices[0] : {};
    const stop = text(choice.stop_reason);
    const metadata = isObject(sample.metadata) ? sample.metadata : {};
    const { calls, cost } = usageOf(sample, output);
    const totalTime = typeof sample.total_time === 'number' && sample.total_time >= 0 ? sample.total_time : undefined;
    return {
      caseId: String(id), category: text(metadata.category), variant, epoch: Math.max(0, epoch - 1),
      passed: error === undefined && value !== undefined && value >= 1, score: value === undefined ? undefined : Math.min(1, Math.max(0, value)),
      output: text(output.completion) ?? messageText(choice.message), model: text(output.model) ?? model, baseUrl: text(spec.model_base_url) ?? `inspect:${model}`,
      calls, costUsd: cost, latencyMs: totalTime === undefined ? undefined : Math.round(totalTime * 1000),
      finishReason: error !== undefined ? 'error' : finishOf(stop), finishReasonRaw: error !== undefined ? 'error' : stop, error,
    } satisfies ImportedSample;
  });
  const packages = isObject(spec.packages) ? spec.packages : {};
  return { samples, model, task: text(spec.task) ?? 'inspect task', evalId: text(spec.eval_id), createdAt: text(spec.created), version: text(packages.inspect_ai), scorer: [...scorers].join('+') || 'none' };
}

/** inspect's `value_to_float`: CORRECT/INCORRECT/PARTIAL/NOANSWER, booleans, yes/no, numbers. */
function scoreValue(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if (word === 'c' || word === 'true' || word === 'yes') return 1;
  if (word === 'i' || word === 'n' || word === 'false' || word === 'no') return 0;
  if (word === 'p') return 0.5;
  const parsed = Number(word);
  return word !== '' && Number.isFinite(parsed) ? parsed : undefined;
}

function usageOf(sample: JsonObject, output: JsonObject): { calls: ImportedUsage[]; cost: number | undefined } {
  const byModel = isObject(sample.model_usage) ? Object.values(sample.model_usage).filter(isObject) : [];
  const usages = byModel.length > 0 ? byModel : isObject(output.usage) ? [output.usage] : [];
  let cost: number | undefined = 0;
  const calls = usages.map((usage): ImportedUsage => {
    const input = count(usage.input_tokens);
    const read = count(usage.input_tokens_cache_read);
    const write = count(usage.input_tokens_cache_write);
    const spent = count(usage.total_cost);
    cost = cost === undefined || spent === undefined ? undefined : cost + spent;
    const prompt = input === undefined ? undefined : input + (read ?? 0) + (write ?? 0);
    const completion = count(usage.output_tokens);
    const total = count(usage.total_tokens);
    return { prompt, completion, total: total !== undefined && total > 0 ? total : prompt === undefined || completion === undefined ? undefined : prompt + completion, cached: read, reasoning: count(usage.reasoning_tokens) };
  });
  return { calls, cost: usages.length === 0 ? undefined : cost };
}

function messageText(message: unknown): string {
  if (!isObject(message)) return '';
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return '';
  return message.content.map((part) => (isObject(part) && part.type === 'text' ? (text(part.text) ?? '') : '')).join('');
}

const FINISH: Record<string, UnifiedFinishReason> = { stop: 'stop', max_tokens: 'length', model_length: 'length', tool_calls: 'tool_calls' };

function finishOf(raw: string | undefined): UnifiedFinishReason {
  return (raw !== undefined ? FINISH[raw] : undefined) ?? 'stop';
}

/** `samples` of a JSON log (an array), as objects. */
export function samplesAt(value: unknown, file: string): JsonObject[] {
  if (value === undefined || value === null) return [];
  return arrayAt(value, file, 'samples', HINT).map((s, i) => objectAt(s, file, `samples[${i}]`, HINT));
}
