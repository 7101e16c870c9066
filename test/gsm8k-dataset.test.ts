/**
 * A GSM8K-shaped dataset (`question`, `answer` ending in `#### N`, no ids) runs as it is
 * (issue 15, item 2): `datasets.fields` names the columns, `scorer.expected_pattern` reads the
 * number after `####`, CSV and `.jsonl.gz` splits load by extension — no conversion step. A
 * real run of the built CLI on the simulator.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import type { ResultRecord } from '../src/ledger/records.js';
import { runCli } from './support/cli.js';

interface Gsm8kRow { question: string; answer: string }

/** Word problems whose question ends in an expression the simulator computes; answers as GSM8K writes them. */
function rows(offset: number, count: number): Gsm8kRow[] {
  return Array.from({ length: count }, (_, i) => {
    const [a, b, c] = [20 + ((i * 7 + offset) % 70), 12 + ((i * 11 + offset) % 60), 2 + ((i + offset) % 7)];
    const total = a + b * c;
    const shown = total.toLocaleString('en-US');
    return {
      question: `A shop has ${a} boxes and receives ${c} deliveries of ${b} boxes each. How many boxes does it have? What is ${a} + ${b} * ${c}?`,
      answer: `Deliveries bring ${b} * ${c} = <<${b}*${c}=${b * c}>>${b * c} boxes.\nSo it has ${a} + ${b * c} = <<${a}+${b * c}=${total}>>${total} boxes.\n#### ${shown}`,
    };
  });
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const csv = (data: readonly Gsm8kRow[]): string => `question,answer\r\n${data.map((r) => `"${r.question.replace(/"/g, '""')}","${r.answer.replace(/"/g, '""')}"`).join('\r\n')}\r\n`;
const jsonl = (data: readonly Gsm8kRow[]): string => data.map((r) => `${JSON.stringify(r)}\n`).join('');

const EXPERIMENT = `experiment: gsm8k-shaped
provider: { preset: sim }
models: { candidate: sim-small }
variants:
  baseline: { id: plain, system_prompt: "Solve the problem." }
  candidate: { id: terse, system_prompt: "Solve the problem. Reply with the number only." }
budget: { total_tokens_per_case: 1200, best_of_n: [1, 4] }
datasets:
  train: train.csv
  val: val.jsonl
  test: test.jsonl.gz
  fields: { input: question, expected: answer }
scorer: { type: numeric, expected_pattern: '#### *(-?[\\d,.]+)\\s*$' }
selector: majority
seed: 3
`;

function experimentDir(valRows: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-gsm8k-'));
  writeFileSync(join(dir, 'experiment.yaml'), EXPERIMENT);
  writeFileSync(join(dir, 'train.csv'), csv(rows(1000, 12)));
  writeFileSync(join(dir, 'val.jsonl'), valRows);
  writeFileSync(join(dir, 'test.jsonl.gz'), gzipSync(jsonl(rows(2000, 12))));
  return dir;
}

test('a GSM8K-shaped file runs with datasets.fields and the numeric scorer, no conversion step', async () => {
  const dir = experimentDir(jsonl(rows(0, 30)));
  const validate = await runCli(['validate', 'experiment.yaml'], { cwd: dir });
  expect(validate.code, validate.stderr).toBe(0);
  expect(validate.stdout).toMatch(/dataset ok: train 12 cases/);
  expect(validate.stdout).toMatch(/dataset ok: val 30 cases/);
  expect(validate.stdout).toMatch(/dataset ok: test 12 cases/);
  // One warning per file, not per row.
  expect(validate.stderr.match(/no row has an `id`/g)).toHaveLength(3);

  const run = await runCli(['run', 'experiment.yaml', '--sim-latency-scale', '0', '--no-report'], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr.match(/no row has an `id`/g)).toHaveLength(3);
  const [runId] = readdirSync(join(dir, 'runs'));
  const results = readFileSync(join(dir, 'runs', runId as string, 'results.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as ResultRecord);
  expect(results).toHaveLength(30 * 4);
  // Every path was scored (no scorer error: the pattern matched every answer) and the ids are hashes.
  expect(results.flatMap((r) => r.paths.map((p) => p.error)).filter((e) => e !== undefined && e !== null)).toEqual([]);
  expect(results.every((r) => /^[0-9a-f]{12}$/.test(r.case_id))).toBe(true);
  // The simulator computes these expressions; most answers are right, and it is the number after #### that is compared.
  const single = results.filter((r) => r.n === 1);
  const passRate = single.filter((r) => r.passed).length / single.length;
  expect(passRate).toBeGreaterThan(0.6);
  expect(run.stdout).toMatch(/verdict: [A-Z_]+/);
}, 30_000);

test('bad input: a row missing the mapped field, a broken CSV quote — file, line, key, fix; exit 2; no run directory', async () => {
  const broken = jsonl(rows(0, 5)).replace(/"question":/, '"prompt":');
  const dir = experimentDir(broken);
  const run = await runCli(['run', 'experiment.yaml'], { cwd: dir });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`${join(dir, 'val.jsonl')}:1: question: missing \`question\` (the input, named by datasets.fields.input)\n  hint: give every row a \`question\``);
  expect(run.stderr).not.toMatch(/\bat \w+ \(/);
  expect(readdirSync(dir)).not.toContain('runs');

  // An answer without `#### N`: bad input before the first call, not a scorer error mid-run.
  const noMarker = experimentDir(jsonl(rows(0, 5)).replace(/\\n#### [\d,]+"/, '"'));
  const unreadable = await runCli(['run', 'experiment.yaml'], { cwd: noMarker });
  expect(unreadable.code).toBe(2);
  expect(unreadable.stderr).toContain(`${join(noMarker, 'val.jsonl')}:1: answer: \`answer\` "`);
  expect(unreadable.stderr).toContain(' boxes." does not match scorer.expected_pattern /#### *(-?[\\d,.]+)\\s*$/ (its first group is the expected value)\n  hint: give the row an answer the pattern reads (GSM8K: end it with `#### 42`)');
  expect(readdirSync(noMarker)).not.toContain('runs');

  const badCsv = experimentDir(jsonl(rows(0, 5)));
  writeFileSync(join(badCsv, 'train.csv'), 'question,answer\n"What is 2 + 2?,"#### 4"\n');
  const validate = await runCli(['validate', 'experiment.yaml'], { cwd: badCsv });
  expect(validate.code).toBe(2);
  expect(validate.stderr).toMatch(new RegExp(`${escapeRegExp(join(badCsv, 'train.csv'))}:2: question: text after the closing quote of column \`question\`\n {2}hint: .*RFC 4180`));
});

test('init --from-dataset on a GSM8K CSV: reads question/answer, picks the numeric scorer with expected_pattern, and runs', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'isobudget-gsm8k-init-'));
  writeFileSync(join(cwd, 'gsm8k.csv'), csv(rows(0, 60)));
  const init = await runCli(['init', 'exp', '--from-dataset', 'gsm8k.csv'], { cwd });
  expect(init.code, init.stderr).toBe(0);
  expect(init.stdout).toMatch(/from gsm8k\.csv \(read input from `question`, expected from `answer`\)/);
  const yaml = readFileSync(join(cwd, 'exp', 'experiment.yaml'), 'utf8');
  expect(yaml).toContain("scorer: { type: numeric, expected_pattern: '#### *(-?[\\d,.]+)\\s*$' }");
  const run = await runCli(['run', 'exp/experiment.yaml', '--sim-latency-scale', '0', '--no-report', '--json'], { cwd });
  expect(run.code, run.stderr).toBe(0);
  const report = JSON.parse(run.stdout) as { arms: Array<{ arm: string; passAt1: number; errors: { scorer: number } }> };
  expect(report.arms).toHaveLength(4);
  for (const arm of report.arms) {
    expect(arm.errors.scorer, arm.arm).toBe(0);
    expect(arm.passAt1, arm.arm).toBeGreaterThan(0.3);
  }
}, 30_000);
