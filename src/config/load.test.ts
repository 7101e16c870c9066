import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { IsobudgetError } from '../core/errors.js';
import { readApiKey } from './env.js';
import type { ConfigFileAccess } from './file-access.js';
import { experimentJsonSchema } from './json-schema.js';
import { loadConfig, parseConfigText } from './load.js';
import { collectErrors, tempTree } from '../test-support/config-helpers.js';

/** Section 3 of the seed article, verbatim. */
const SEED_YAML = `experiment: budget_fairness_best_of_n
provider:
  base_url: https://taotoken.net/api
  api_key_env: TAOTOKEN_API_KEY
models:
  candidate: your-candidate-model
  judge: your-judge-model
budget:
  total_tokens_per_case: 200000
  per_case_max_tokens: 4096
  best_of_n: [1, 4, 8]
datasets:
  train: eval/train.jsonl
  val: eval/val.jsonl
  test: eval/test.jsonl
gates:
  min_same_budget_gain: 0.08
  max_token_growth_ratio: 1.15
  max_latency_growth_ratio: 1.30
  bootstrap_rounds: 2000
`;

const minimal = (extra: string): string => `experiment: demo\nprovider: { preset: sim }\nmodels: { candidate: m }\ndatasets: { val: val.jsonl }\n${extra}`;
const memoryFiles = (files: Record<string, string>): ConfigFileAccess => ({
  readText: (path) => files[path],
  isFile: (path) => path in files,
});

describe('the seed config', () => {
  test('loads unchanged, with both variants on models.candidate', async () => {
    const dir = tempTree({ 'experiment.yaml': SEED_YAML });
    const config = await loadConfig(join(dir, 'experiment.yaml'));
    expect(config).toEqual({
      experiment: 'budget_fairness_best_of_n',
      configPath: join(dir, 'experiment.yaml'),
      provider: { protocol: 'openai-chat', baseUrl: 'https://taotoken.net/api', apiKeyEnv: 'TAOTOKEN_API_KEY', preset: undefined, timeoutMs: 60000, headers: {} },
      models: { candidate: 'your-candidate-model', baseline: undefined, judge: 'your-judge-model' },
      budget: { totalTokensPerCase: 200000, perCaseMaxTokens: 4096, bestOfN: [1, 4, 8], includeJudge: false },
      datasets: { train: join(dir, 'eval/train.jsonl'), val: join(dir, 'eval/val.jsonl'), test: join(dir, 'eval/test.jsonl'), regression: undefined },
      gates: { minSameBudgetGain: 0.08, maxTokenGrowthRatio: 1.15, maxLatencyGrowthRatio: 1.3, bootstrapRounds: 2000, confidence: 0.95 },
      variants: {
        baseline: { id: 'baseline', model: 'your-candidate-model', systemPrompt: '', skillFile: undefined, temperature: 0.2 },
        candidate: { id: 'candidate', model: 'your-candidate-model', systemPrompt: '', skillFile: undefined, temperature: 0.2 },
      },
      executor: { type: 'chat' },
      scorer: { type: 'normalized' },
      selector: { type: 'oracle' },
      epochs: 1,
      seed: 0,
      concurrency: 8,
      rateLimit: undefined,
      retries: { maxAttempts: 5, initialDelayMs: 500, maxDelayMs: 30000 },
      nMode: 'native',
    });
  });

  test('the one-line flow form from DESIGN.md loads to the same config', () => {
    const flow = `experiment: budget_fairness_best_of_n
provider: { base_url: https://taotoken.net/api, api_key_env: TAOTOKEN_API_KEY }
models: { candidate: your-candidate-model, judge: your-judge-model }
budget: { total_tokens_per_case: 200000, per_case_max_tokens: 4096, best_of_n: [1, 4, 8] }
datasets: { train: eval/train.jsonl, val: eval/val.jsonl, test: eval/test.jsonl }
gates: { min_same_budget_gain: 0.08, max_token_growth_ratio: 1.15,
         max_latency_growth_ratio: 1.30, bootstrap_rounds: 2000 }
`;
    expect(parseConfigText(flow, '/x/e.yaml')).toEqual(parseConfigText(SEED_YAML, '/x/e.yaml'));
  });
});

describe('normalization', () => {
  test('presets fill protocol, base URL and key variable; explicit keys win', () => {
    const sim = parseConfigText(minimal(''), '/x/e.yaml');
    expect(sim.provider).toMatchObject({ protocol: 'sim', baseUrl: 'sim://local', apiKeyEnv: undefined, preset: 'sim' });
    const anthropic = parseConfigText(minimal('').replace('{ preset: sim }', '{ preset: anthropic }'), '/x/e.yaml');
    expect(anthropic.provider).toMatchObject({ protocol: 'anthropic-messages', baseUrl: 'https://api.anthropic.com', apiKeyEnv: 'ANTHROPIC_API_KEY' });
    const overridden = parseConfigText(minimal('').replace('{ preset: sim }', '{ preset: openrouter, base_url: http://localhost:9000/v1, api_key_env: MY_KEY }'), '/x/e.yaml');
    expect(overridden.provider).toMatchObject({ protocol: 'openai-chat', baseUrl: 'http://localhost:9000/v1', apiKeyEnv: 'MY_KEY', preset: 'openrouter' });
    const bareSim = parseConfigText(minimal('').replace('{ preset: sim }', '{ protocol: sim }'), '/x/e.yaml');
    expect(bareSim.provider.baseUrl).toBe('sim://local');
  });

  test('variants: skill files are read relative to the YAML; inline prompts and models are kept', () => {
    const files = memoryFiles({ '/x/skills/v3.md': 'Answer in ISO 8601.\n' });
    const config = parseConfigText(
      minimal('models: { candidate: m-new, baseline: m-old }\nvariants:\n  baseline: { id: skill-v2, system_prompt: Be brief., temperature: 0 }\n  candidate: { id: skill-v3, skill: skills/v3.md }\n').replace('models: { candidate: m }\n', ''),
      '/x/e.yaml',
      { files },
    );
    expect(config.variants.baseline).toEqual({ id: 'skill-v2', model: 'm-old', systemPrompt: 'Be brief.', skillFile: undefined, temperature: 0 });
    expect(config.variants.candidate).toEqual({ id: 'skill-v3', model: 'm-new', systemPrompt: 'Answer in ISO 8601.\n', skillFile: '/x/skills/v3.md', temperature: 0.2 });
  });

  test('best_of_n is sorted, deduplicated and always includes 1; per-path cap defaults to min(4096, B)', () => {
    const config = parseConfigText(minimal('budget: { total_tokens_per_case: 2000, best_of_n: [8, 4, 4] }\n'), '/x/e.yaml');
    expect(config.budget).toEqual({ totalTokensPerCase: 2000, perCaseMaxTokens: 2000, bestOfN: [1, 4, 8], includeJudge: false });
  });

  test('shorthands and object forms of executor, scorer, selector, retries', () => {
    const files = memoryFiles({ '/x/scorers/date.mjs': 'export default () => 1;' });
    const config = parseConfigText(
      minimal('executor: { type: chat }\nscorer: { type: module, module: scorers/date.mjs }\nselector: { type: verifier, scorer: { type: contains, ignore_case: false } }\nretries: 3\nrate_limit: { requests_per_second: 2.5 }\nn_mode: parallel\n'),
      '/x/e.yaml',
      { files },
    );
    expect(config.scorer).toEqual({ type: 'module', module: '/x/scorers/date.mjs', export: 'default' });
    expect(config.selector).toEqual({ type: 'verifier', scorer: { type: 'contains', ignoreCase: false } });
    expect(config.retries).toEqual({ maxAttempts: 3, initialDelayMs: 500, maxDelayMs: 30000 });
    expect(config.rateLimit).toBe(2.5);
    expect(config.nMode).toBe('parallel');
    expect(parseConfigText(minimal('scorer: regex\nselector: majority\n'), '/x/e.yaml')).toMatchObject({ scorer: { type: 'regex', flags: '' }, selector: { type: 'majority' } });
    expect(parseConfigText(minimal("scorer: { type: command, argv: [python, score.py] }\n"), '/x/e.yaml').scorer).toEqual({ type: 'command', argv: ['python', 'score.py'], timeoutMs: 10000 });
  });
});

describe('readApiKey', () => {
  const openai = parseConfigText(minimal('').replace('{ preset: sim }', '{ preset: openai }'), '/x/e.yaml');

  test('reads the named variable; sim needs none', () => {
    expect(readApiKey(openai, { OPENAI_API_KEY: 'sk-test' })).toBe('sk-test');
    expect(readApiKey(parseConfigText(minimal(''), '/x/e.yaml'), {})).toBeUndefined();
  });

  test('a missing variable names the variable and how to set it, never a value', async () => {
    const [error] = await collectErrors(() => readApiKey(openai, { OTHER_KEY: 'sk-secret-value' }));
    expect(error).toBeInstanceOf(IsobudgetError);
    expect(error?.message).toBe('environment variable OPENAI_API_KEY is not set (named by preset `openai`)');
    expect(error?.hint).toContain('export OPENAI_API_KEY=');
    expect(error?.location).toEqual({ file: '/x/e.yaml', key: 'provider.api_key_env' });
    expect(error?.format()).not.toContain('sk-secret-value');
  });
});

describe('experimentJsonSchema', () => {
  test('is valid JSON describing every top-level key, strict, with defaults', () => {
    const schema = JSON.parse(JSON.stringify(experimentJsonSchema())) as {
      properties: Record<string, { properties?: Record<string, { default?: unknown }> }>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(schema.properties['budget']).toBeDefined();
    expect(schema.properties['budget']?.properties?.['total_tokens_per_case']?.default).toBe(200000);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['experiment', 'provider', 'variants', 'scorer', 'selector', 'retries', 'n_mode']));
    expect(schema.required).toEqual(['experiment', 'provider', 'datasets']);
    expect(schema.additionalProperties).toBe(false);
  });
});
