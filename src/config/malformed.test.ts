import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from './load.js';
import { collectErrors, tempTree } from '../test-support/config-helpers.js';

/** A valid config; each case below edits it. Line numbers refer to this layout. */
const BASE = [
  'experiment: demo', // 1
  'provider:', // 2
  '  base_url: https://llm.example/v1', // 3
  '  api_key_env: DEMO_API_KEY', // 4
  'models:', // 5
  '  candidate: model-a', // 6
  'budget:', // 7
  '  total_tokens_per_case: 1000', // 8
  '  best_of_n: [1, 4]', // 9
  'datasets:', // 10
  '  val: eval/val.jsonl', // 11
].join('\n');

const edit = (line: number, text: string): string => BASE.split('\n').map((l, i) => (i + 1 === line ? text : l)).join('\n');
const append = (text: string): string => `${BASE}\n${text}`;

interface Case {
  name: string;
  yaml: string;
  files?: Record<string, string>;
  message: string;
  line: number;
  key: string | undefined;
}

const cases: Case[] = [
  { name: 'unknown top-level key', yaml: append('epoch: 3'), message: 'unknown key `epoch` at the top level; did you mean `epochs`?', line: 12, key: 'epoch' },
  { name: 'unknown nested key', yaml: edit(8, '  total_token_per_case: 1000'), message: 'unknown key `total_token_per_case` under `budget`; did you mean `total_tokens_per_case`?', line: 8, key: 'budget.total_token_per_case' },
  { name: 'camelCase key', yaml: append('nMode: parallel'), message: 'did you mean `n_mode`?', line: 12, key: 'nMode' },
  { name: 'YAML syntax error', yaml: edit(9, '  best_of_n: [1, 4'), message: 'YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]', line: 10, key: 'budget.best_of_n' },
  { name: 'duplicate YAML key', yaml: edit(7, '  candidate: model-b\nbudget:'), message: 'duplicate key `models.candidate` (first on line 6)', line: 7, key: 'models.candidate' },
  { name: 'wrong type', yaml: edit(8, '  total_tokens_per_case: lots'), message: 'expected a number, got string "lots"', line: 8, key: 'budget.total_tokens_per_case' },
  { name: 'negative budget', yaml: edit(8, '  total_tokens_per_case: -5'), message: 'must be > 0 (got -5)', line: 8, key: 'budget.total_tokens_per_case' },
  { name: 'best_of_n containing 0', yaml: edit(9, '  best_of_n: [0, 4]'), message: 'must be > 0 (got 0)', line: 9, key: 'budget.best_of_n[0]' },
  { name: 'best_of_n non-integer', yaml: edit(9, '  best_of_n: [1, 2.5]'), message: 'expected an integer, got number 2.5', line: 9, key: 'budget.best_of_n[1]' },
  { name: 'best_of_n larger than the budget', yaml: edit(9, '  best_of_n: [1, 2000]'), message: 'n=2000 leaves less than one token per path', line: 9, key: 'budget.best_of_n[1]' },
  { name: 'per_case_max_tokens > total', yaml: edit(9, '  per_case_max_tokens: 5000'), message: 'per_case_max_tokens (5000) exceeds total_tokens_per_case (1000)', line: 9, key: 'budget.per_case_max_tokens' },
  { name: 'missing experiment', yaml: edit(1, '# no name'), message: 'missing required key `experiment`', line: 2, key: 'experiment' },
  { name: 'missing base_url for openai-chat', yaml: edit(3, '  protocol: openai-chat'), message: 'missing required key `base_url` for protocol openai-chat', line: 2, key: 'provider.base_url' },
  { name: 'unknown protocol', yaml: edit(4, '  protocol: openai-chats'), message: 'got string "openai-chats"; did you mean `openai-chat`?', line: 4, key: 'provider.protocol' },
  { name: 'unknown preset', yaml: edit(3, '  preset: opnai'), message: 'did you mean `openai`?', line: 3, key: 'provider.preset' },
  { name: 'api key pasted instead of a variable name', yaml: edit(4, '  api_key_env: sk-live-abc123'), message: 'must be the NAME of an environment variable', line: 4, key: 'provider.api_key_env' },
  { name: 'authorization header', yaml: edit(4, '  headers: { Authorization: Bearer abc }'), message: 'header `Authorization` would carry a secret', line: 4, key: 'provider.headers.Authorization' },
  { name: 'bad regex', yaml: append("scorer: { type: regex, pattern: 'a(' }"), message: 'invalid regular expression: Invalid regular expression: /a(/: Unterminated group', line: 12, key: 'scorer.pattern' },
  { name: 'unknown scorer type', yaml: append('scorer: { type: modul, module: ./s.mjs }'), message: 'unknown type string "modul"', line: 12, key: 'scorer.type' },
  { name: 'command scorer with empty argv', yaml: append('scorer: { type: command, argv: [] }'), message: 'must have at least 1 item(s)', line: 12, key: 'scorer.argv' },
  { name: 'scorer module missing', yaml: append('scorer: { type: module, module: ./score.mjs }'), message: 'scorer module not found:', line: 12, key: 'scorer.module' },
  { name: 'skill file missing', yaml: append('variants:\n  candidate:\n    skill: skills/v3.md'), message: 'skill file not found:', line: 14, key: 'variants.candidate.skill' },
  { name: 'both skill and system_prompt', yaml: append('variants:\n  baseline:\n    skill: v2.md\n    system_prompt: be brief'), files: { 'v2.md': 'x' }, message: 'give either `skill` or `system_prompt`, not both', line: 15, key: 'variants.baseline.system_prompt' },
  { name: 'same id for both variants', yaml: append('variants:\n  baseline: { id: v1 }\n  candidate: { id: v1 }'), message: 'baseline and candidate share the id `v1`', line: 14, key: 'variants.candidate.id' },
  { name: 'concurrency 0', yaml: append('concurrency: 0'), message: 'must be ≥ 1 (got 0)', line: 12, key: 'concurrency' },
  { name: 'confidence out of range', yaml: append('gates: { confidence: 1.5 }'), message: 'must be < 1 (got 1.5)', line: 12, key: 'gates.confidence' },
  { name: 'unknown selector', yaml: append('selector: best'), message: 'must be one of `oracle`, `majority`, `verifier`, `judge`, got string "best"', line: 12, key: 'selector' },
  { name: 'judge selector without a judge model', yaml: append('selector: judge'), message: 'a judge needs a model', line: 12, key: 'selector.model' },
  { name: 'retries typo inside the object form', yaml: append('retries: { max_attempt: 3 }'), message: 'did you mean `max_attempts`?', line: 12, key: 'retries.max_attempt' },
  { name: 'retries of the wrong type', yaml: append('retries: many'), message: 'expected a number or a mapping (key: value), got string "many"', line: 12, key: 'retries' },
  { name: 'no val or test dataset', yaml: edit(11, '  train: eval/train.jsonl'), message: 'at least one of `val` or `test` is required', line: 10, key: 'datasets.val' },
  { name: 'no model at all', yaml: edit(6, '  judge: model-j'), message: 'no model for the baseline and candidate variants', line: 5, key: 'models.candidate' },
  { name: 'empty file', yaml: '# nothing here\n', message: 'config file is empty', line: 1, key: undefined },
  { name: 'not a mapping', yaml: '- experiment\n- demo\n', message: 'the config must be a YAML mapping', line: 1, key: undefined },
];

describe('malformed configs', () => {
  test.each(cases)('$name', async ({ yaml, files, message, line, key }) => {
    const dir = tempTree({ 'experiment.yaml': yaml, ...(files ?? {}) });
    const file = join(dir, 'experiment.yaml');
    const errors = await collectErrors(() => loadConfig(file));
    const match = errors.find((e) => e.message.includes(message));
    expect(match, `no error containing ${JSON.stringify(message)} in:\n${errors.map((e) => e.format()).join('\n')}`).toBeDefined();
    expect(match?.location?.file).toBe(file);
    expect(match?.location?.line).toBe(line);
    expect(match?.location?.key).toBe(key);
    expect(match?.hint?.length ?? 0).toBeGreaterThan(0);
  });

  test('the pasted key itself never appears in the error', async () => {
    const dir = tempTree({ 'experiment.yaml': edit(4, '  api_key_env: sk-live-abc123') });
    const errors = await collectErrors(() => loadConfig(join(dir, 'experiment.yaml')));
    expect(errors.map((e) => e.format()).join('\n')).not.toContain('sk-live');
  });

  test('every problem is reported in one pass, each with its own line', async () => {
    const yaml = [edit(8, '  total_token_per_case: 1000').replace('best_of_n: [1, 4]', 'best_of_n: [0]'), 'concurrency: 0', 'scorer: { type: regex, pattern: "(" }'].join('\n');
    const dir = tempTree({ 'experiment.yaml': yaml });
    const errors = await collectErrors(() => loadConfig(join(dir, 'experiment.yaml')));
    expect(errors.map((e) => [e.location?.line, e.location?.key])).toEqual(
      expect.arrayContaining([[8, 'budget.total_token_per_case'], [9, 'budget.best_of_n[0]'], [12, 'concurrency'], [13, 'scorer.pattern']]),
    );
  });

  test('errors format as file:line:column: key: message with a hint', async () => {
    const dir = tempTree({ 'experiment.yaml': edit(8, '  total_token_per_case: 1000') });
    const file = join(dir, 'experiment.yaml');
    const [error] = await collectErrors(() => loadConfig(file));
    expect(error?.format()).toBe(
      `${file}:8:3: budget.total_token_per_case: unknown key \`total_token_per_case\` under \`budget\`; did you mean \`total_tokens_per_case\`?\n  hint: rename it to \`total_tokens_per_case\``,
    );
  });

  test('a missing config file names the path', async () => {
    const errors = await collectErrors(() => loadConfig('/nonexistent/dir/experiment.yaml'));
    expect(errors[0]?.message).toBe('config file not found: /nonexistent/dir/experiment.yaml');
  });
});

describe('YAML syntax errors point at the entry at fault', () => {
  test.each([
    { name: 'unterminated quote', yaml: 'experiment: "demo\nprovider: { preset: sim }\n', line: 3, key: 'experiment' },
    { name: 'bad indentation', yaml: 'experiment: demo\nbudget:\n  best_of_n: [1]\n per_case_max_tokens: 4\n', line: 4, key: 'budget' },
    { name: 'nested compact mapping', yaml: 'experiment: a: b\n', line: 1, key: 'experiment.a' },
  ])('$name', async ({ yaml, line, key }) => {
    const dir = tempTree({ 'experiment.yaml': yaml });
    const errors = await collectErrors(() => loadConfig(join(dir, 'experiment.yaml')));
    expect(errors[0]?.message).toMatch(/^YAML syntax error: /);
    expect(errors[0]?.location?.line).toBe(line);
    expect(errors[0]?.location?.key).toBe(key);
  });
});
