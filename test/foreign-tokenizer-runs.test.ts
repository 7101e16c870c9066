/**
 * Issue 16 item 10: runs reserve prompts with the shared estimator, so a provider that bills
 * with its own tokenizer cannot push a unit over B. The date-parser example, and a Chinese
 * variant of it, run against the simulator's `foreign-tokenizer` profile (prompts billed
 * ~1.4–1.5× o200k) over real HTTP: with openai-chat the estimator learns the billed/counted
 * ratio from settled calls; with anthropic-messages it asks count_tokens through the SDK.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SEED_RATIO } from '../src/estimate/billing-ratios.js';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { runPaths } from '../src/ledger/run-dir.js';
import { startSimServer, type SimServer } from '../src/providers/sim/index.js';
import { runExperiment } from '../src/runner/run-experiment.js';
import { verdictForRun } from '../src/verdict/verdict-for-run.js';
import { runCli } from './support/cli.js';

const EXAMPLE = join(import.meta.dirname, '..', 'examples', 'date-parser');
let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ seed: 3, billing: 'foreign-tokenizer' });
});
afterAll(async () => {
  await server.close();
});

/** The instruction lines of the date-parser cases, in Chinese (the dates stay as written). */
const CHINESE_PROMPTS: Array<[RegExp, string]> = [
  [/^Convert the following date to ISO format \(YYYY-MM-DD\): /, '请将下面的日期转换为 ISO 格式（YYYY-MM-DD）：'],
  [/^Normalize this date to ISO 8601 \(YYYY-MM-DD\): /, '请把这个日期规范化为 ISO 8601（YYYY-MM-DD）：'],
  [/^Rewrite this date as YYYY-MM-DD: /, '请将这个日期改写为 YYYY-MM-DD：'],
];
const CHINESE_SKILL = [
  '# 日期规范化',
  '',
  '把请求中的日期转换为 ISO 8601 格式，只回复日期本身，格式为 `YYYY-MM-DD`：四位年份、两位月份、两位日期。不要其他文字，不要引号。',
  '',
  '## 规则',
  '- 像 `03/04/2021` 这样的斜杠日期是美国格式 `MM/DD/YYYY`：月份在前。',
  '- 像 `04.03.2021` 这样的点号日期是欧洲格式 `DD.MM.YYYY`：日期在前。',
  '- 八位数字的紧凑日期如 `20210304` 是 `YYYYMMDD`。',
  '- 月份名称可以是全称或缩写；序数后缀（`4th`）忽略。',
  '- 两位数年份：00–49 → 20xx，50–99 → 19xx。',
  '- ISO 周日期（`2021-W09-4`）：第一周包含第一个星期四；第 1 天是星期一。',
  '- 序数日期（`2021-063`）：一年中的第几天。',
].join('\n');

/** A copy of the example with its provider pointed at the server, `cases` val cases and its budget line kept unless given. */
function copyExample(provider: string, chinese: boolean, budget?: string): { configPath: string; runsDir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-foreign-'));
  cpSync(EXAMPLE, dir, { recursive: true });
  let yaml = readFileSync(join(dir, 'experiment.yaml'), 'utf8').replace('provider: { preset: sim }', `provider: ${provider}`);
  if (budget !== undefined) yaml = yaml.replace(/^budget: .*$/m, `budget: ${budget}`);
  writeFileSync(join(dir, 'experiment.yaml'), yaml);
  for (const file of readdirSync(join(dir, 'data'))) {
    const lines = readFileSync(join(dir, 'data', file), 'utf8').split('\n').filter((line) => line.trim() !== '').slice(0, 60);
    const cases = lines.map((line) => {
      const row = JSON.parse(line) as { input: string };
      if (chinese) for (const [english, zh] of CHINESE_PROMPTS) row.input = row.input.replace(english, zh);
      return JSON.stringify(row);
    });
    writeFileSync(join(dir, 'data', file), `${cases.join('\n')}\n`);
  }
  if (chinese) {
    for (const skill of ['v2.md', 'v3.md']) {
      const text = readFileSync(join(dir, 'skills', skill), 'utf8');
      const front = /^---\n[\s\S]*?\n---\n/.exec(text)?.[0] ?? '';
      // v2 lacks the last three rules, as in English.
      writeFileSync(join(dir, 'skills', skill), `${front}${skill === 'v2.md' ? CHINESE_SKILL.split('\n').slice(0, -3).join('\n') : CHINESE_SKILL}\n`);
    }
  }
  return { configPath: join(dir, 'experiment.yaml'), runsDir: join(dir, 'runs') };
}

describe.each([
  // Anthropic has no native n: n=8 is 8 calls each paying the ~480-token prompt, which B=3000 cannot hold with any tokenizer.
  { protocol: 'openai-chat', provider: () => `{ protocol: openai-chat, base_url: "${server.url}/v1" }`, budget: undefined },
  { protocol: 'anthropic-messages', provider: () => `{ protocol: anthropic-messages, base_url: "${server.url}" }`, budget: '{ total_tokens_per_case: 6000, per_case_max_tokens: 1024, best_of_n: [1, 8] }' },
])('$protocol against the foreign-tokenizer simulator', ({ protocol, provider, budget }) => {
  test.each([
    { language: 'English', chinese: false },
    { language: 'Chinese', chinese: true },
  ])('date-parser in $language: no unit over B, verdict not invalid, the ledger shows the estimate', async ({ chinese }) => {
    const experiment = copyExample(provider(), chinese, budget);
    const run = await runExperiment({ configPath: experiment.configPath, outDir: experiment.runsDir, env: {} });
    const paths = runPaths(run.runDir);
    const B = Number(/total_tokens_per_case: (\d+)/.exec(readFileSync(experiment.configPath, 'utf8'))?.[1]);
    const calls = readJsonl<CallRecord>(paths.calls).records;
    const results = readJsonl<ResultRecord>(paths.results).records;
    expect(results.length).toBeGreaterThan(100);
    for (const result of results) {
      expect(result.over_budget, result.case_id).toBe(false);
      expect(result.total_tokens ?? 0).toBeLessThanOrEqual(B);
    }
    const generate = calls.filter((call) => call.role === 'generate' && call.prompt_tokens !== undefined);
    // The upstream really billed more than o200k counts: an o200k × 1.15 + 16 reservation would not have held.
    const under = generate.filter((call) => (call.prompt_tokens ?? 0) > Math.ceil(((call.prompt_estimate ?? 0) - 16) / (call.estimate_ratio ?? SEED_RATIO)) * 1.15 + 16);
    if (protocol === 'openai-chat') {
      expect(generate.every((call) => call.estimate_source === 'learned_ratio')).toBe(true);
      const ratios = generate.map((call) => call.estimate_ratio ?? 0);
      expect(ratios[0]).toBe(SEED_RATIO);
      // Learned: later calls reserve with the worst billed/counted ratio seen plus 5 %, below the seed and above 1.15.
      const learned = ratios.filter((ratio) => ratio !== SEED_RATIO);
      expect(learned.length).toBeGreaterThan(generate.length / 2);
      for (const ratio of learned) {
        expect(ratio).toBeLessThan(SEED_RATIO);
        expect(ratio).toBeGreaterThan(1.3);
      }
      expect(under.length).toBeGreaterThan(0);
    } else {
      // count_tokens answered (the simulator counts with the same foreign tokenizer): the reservation is that count + 2 %.
      expect(generate.filter((call) => call.estimate_source !== 'provider_count').map((c) => [c.estimate_source, c.case_id, c.arm, c.prompt_tokens, c.prompt_estimate]).slice(0, 5)).toEqual([]);
      for (const call of generate) expect(call.prompt_tokens ?? 0).toBeLessThanOrEqual(call.prompt_estimate ?? 0);
    }
    for (const call of generate) expect(call.prompt_tokens ?? 0, `${call.case_id} ${call.arm}`).toBeLessThanOrEqual(call.prompt_estimate ?? 0);
    expect(verdictForRun(run.runDir).verdict).not.toBe('invalid');
  });
});

describe('isobudget sim serve --profile', () => {
  test('foreign-tokenizer: count_tokens and the bill count more than o200k (a real process); an unknown profile is exit 2 with its line and hint', async () => {
    const messages = [{ role: 'user', content: '请将下面的日期转换为 ISO 格式（YYYY-MM-DD）：March 4, 2021. Reply with the date only.' }];
    const counts: Record<string, number> = {};
    for (const profile of ['o200k', 'foreign-tokenizer']) {
      const result = await runCli(['sim', 'serve', '--port', '0', '--profile', profile], {
        onSpawn: (child) => {
          let out = '';
          child.stdout?.on('data', async (chunk: Buffer) => {
            out += chunk.toString();
            const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
            if (url === undefined || counts[profile] !== undefined) return;
            counts[profile] = -1;
            const reply = await fetch(`${url}/v1/messages/count_tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'sim-small', messages }) });
            counts[profile] = ((await reply.json()) as { input_tokens: number }).input_tokens;
            child.kill('SIGINT');
          });
        },
      });
      expect(result.code, result.stderr).toBe(0);
    }
    expect(counts['foreign-tokenizer']).toBeGreaterThan((counts['o200k'] ?? Infinity) * 1.3);
    const bad = await runCli(['sim', 'serve', '--profile', 'gpt2']);
    expect(bad.code).toBe(2);
    // The error line and its hint, no stack trace.
    expect(bad.stderr.split('\n')[0]).toBe('isobudget sim: --profile gpt2 is not a billing profile');
    expect(bad.stderr).toContain('o200k, foreign-tokenizer');
    expect(bad.stderr).not.toContain('    at ');
  });
});
