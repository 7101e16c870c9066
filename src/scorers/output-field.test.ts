import { describe, expect, test } from 'vitest';
import type { ScorerConfig } from '../config/types.js';
import type { EvalCase } from '../core/case.js';
import { parseOutputField } from '../core/output-field.js';
import { createScorer } from './registry.js';

function makeCase(expected: unknown): EvalCase {
  return { id: 'c1', input: 'q', messages: undefined, expected, reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: 1 } };
}

/** What `claude -p --output-format json` prints: one result object, the answer in `result`. */
const CLAUDE_JSON = JSON.stringify({
  type: 'result', subtype: 'success', is_error: false, duration_ms: 2345, duration_api_ms: 2101, num_turns: 1,
  result: '2024-03-01', session_id: '75ab075f-776a-4bfc-b626-e76db56da17d', total_cost_usd: 0.0123,
  usage: { input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 11834, output_tokens: 7 },
});

/** What `codex exec --json` prints: JSON Lines events; reasoning items carry `item.text` too. */
const CODEX_JSONL = [
  { type: 'thread.started', thread_id: '01a22623-91d9-7533-a692-151c26d275b2' },
  { type: 'turn.started' },
  { type: 'item.completed', item: { id: 'item_0', type: 'reasoning', text: '**Normalizing the date**' } },
  { type: 'item.completed', item: { id: 'item_1', type: 'command_execution', command: 'date', aggregated_output: 'Mon', exit_code: 0, status: 'completed' } },
  { type: 'item.completed', item: { id: 'item_2', type: 'agent_message', text: '2024-03-01' } },
  { type: 'item.completed', item: { id: 'item_3', type: 'reasoning', text: '**Done**' } },
  { type: 'turn.completed', usage: { input_tokens: 2946, cached_input_tokens: 0, output_tokens: 7 } },
].map((event) => JSON.stringify(event)).join('\n');

async function score(config: ScorerConfig, output: string, expected: unknown = '2024-03-01') {
  return createScorer(config).score({ output, evalCase: makeCase(expected) });
}

describe('scorer.output_field', () => {
  test('claude -p --output-format json: output_field result scores the answer', async () => {
    expect(await score({ type: 'normalized', outputField: 'result' }, CLAUDE_JSON)).toMatchObject({ passed: true });
    expect(await score({ type: 'exact', outputField: 'result' }, CLAUDE_JSON, '2024-03-02')).toMatchObject({ passed: false, value: 0, explanation: expect.stringContaining('!=') });
  });

  test('the README example before the fix: `field: result` reads expected, so every path is a scorer error', async () => {
    const scored = await score({ type: 'normalized', field: 'result' }, CLAUDE_JSON);
    expect(scored.error).toMatch(/field 'result' is set but expected is a string/);
  });

  test('field keeps its meaning for expected, beside output_field', async () => {
    expect(await score({ type: 'exact', field: 'date', outputField: 'result' }, CLAUDE_JSON, { date: '2024-03-01' })).toMatchObject({ passed: true });
  });

  test('codex exec --json: item[type=agent_message].text picks the agent message, not the reasoning after it', async () => {
    expect(await score({ type: 'exact', outputField: 'item[type=agent_message].text' }, CODEX_JSONL)).toMatchObject({ passed: true });
    // Without the condition the last line with item.text wins: here a reasoning item.
    expect(await score({ type: 'exact', outputField: 'item.text' }, CODEX_JSONL)).toMatchObject({ passed: false, value: 0, explanation: expect.stringContaining('!=') });
  });

  test('a failed codex turn (no agent message) is a scorer error, not a quiet failure', async () => {
    const failed = [JSON.stringify({ type: 'turn.started' }), JSON.stringify({ type: 'item.completed', item: { id: 'item_0', type: 'reasoning', text: 'thinking' } }), JSON.stringify({ type: 'turn.failed', error: { message: 'stream disconnected' } })].join('\n');
    const scored = await score({ type: 'exact', outputField: 'item[type=agent_message].text' }, failed);
    expect(scored.passed).toBe(false);
    expect(scored.error).toContain('the JSON Lines output (3 lines) has no `item[type=agent_message].text`');
  });

  test('non-JSON output is a scorer error quoting at most 200 characters, control characters escaped', async () => {
    const output = `\u001b]52;c;cGF3bmVk\u0007\u001b[2J not json ${'x'.repeat(400)}`;
    const scored = await score({ type: 'normalized', outputField: 'result' }, output);
    expect(scored.error).toMatch(/^the output is not JSON, so scorer.output_field `result` cannot be read; output: "\\u001b\]52;c;cGF3bmVk\\u0007\\u001b\[2J not json x+"…$/);
    expect(scored.error).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    const quoted = JSON.parse((scored.error ?? '').replace(/^.*output: /, '').replace(/…$/, '')) as string;
    expect([...quoted]).toHaveLength(200);
  });

  test('missing path and null value are scorer errors; numbers, booleans and objects are scored as text', async () => {
    expect((await score({ type: 'exact', outputField: 'answer' }, CLAUDE_JSON)).error).toMatch(/^the JSON output has no `answer`/);
    expect((await score({ type: 'exact', outputField: 'result' }, '{"result": null}')).error).toMatch(/is null/);
    expect(await score({ type: 'numeric', tolerance: 0, relative: false, outputField: 'usage.output_tokens' }, CLAUDE_JSON, 7)).toMatchObject({ passed: true });
    expect(await score({ type: 'exact', outputField: 'ok' }, '{"ok": true}', 'true')).toMatchObject({ passed: true });
    expect(await score({ type: 'json', outputField: 'answer' }, '{"answer": {"y": 2024, "m": 3}}', { y: 2024, m: 3 })).toMatchObject({ passed: true });
    expect(await score({ type: 'exact', outputField: 'items.1' }, '{"items": ["a", "b"]}', 'b')).toMatchObject({ passed: true });
  });

  test('the path syntax', () => {
    expect(parseOutputField('result')).toEqual([{ key: 'result', where: undefined }]);
    expect(parseOutputField('item[type=agent_message].text')).toEqual([{ key: 'item', where: { key: 'type', equals: 'agent_message' } }, { key: 'text', where: undefined }]);
    expect(parseOutputField('a.b[kind=x.y].c')?.[1]).toEqual({ key: 'b', where: { key: 'kind', equals: 'x.y' } });
    for (const bad of ['', '.a', 'a.', 'a..b', 'a[b]', 'a[=x]', 'a[b=x', 'a]b']) expect(parseOutputField(bad), bad).toBeUndefined();
  });
});
