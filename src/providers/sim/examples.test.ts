/**
 * The shipped examples behave as their READMEs promise, measured on the engine directly:
 * a tiny loop (messages = [skill, input], simulate, score locally) in place of the runner.
 * Budgets follow DESIGN §1: per-path max_tokens = min(per_case_max_tokens, ⌊(B − prompt)/n⌋).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../core/messages.js';
import { countPromptTokens } from '../../core/tokens.js';
import { simulate } from './engine.js';

const EXAMPLES = fileURLToPath(new URL('../../../examples/', import.meta.url));
const SEED = 7;

interface Row {
  id: string;
  input: string;
  expected: unknown;
  category: string;
}

type Score = (output: string, row: Row) => boolean;

interface Arm {
  /** pass@1: the single path of the n=1 arm. */
  pass1: number;
  /** pass@n (oracle): any path passes. */
  passN: number;
  /** The selector's pick passes. */
  selected: number;
  promptTokens: number;
  completionTokens: number;
  truncated: number;
  perCategory: Map<string, number>;
}

function readRows(example: string, split: string): Row[] {
  return readFileSync(`${EXAMPLES}${example}/data/${split}.jsonl`, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Row);
}

/** The skill as a system prompt: the whole file, or its body without the front matter. */
function readSkill(example: string, file: string, form: 'file' | 'body'): string {
  const text = readFileSync(`${EXAMPLES}${example}/skills/${file}`, 'utf8');
  return form === 'file' ? text : text.replace(/^---\n[\s\S]*?\n---\n/, '');
}

function majority(outputs: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const o of outputs) counts.set(o.trim(), (counts.get(o.trim()) ?? 0) + 1);
  return [...counts.entries()].reduce((best, entry) => (entry[1] > best[1] ? entry : best), ['', 0])[0];
}

function runArm(
  rows: readonly Row[], skill: string, n: number, budget: { total: number; perCaseMax: number },
  temperature: number, score: Score, selector: 'majority' | 'verifier',
): Arm {
  const arm: Arm = { pass1: 0, passN: 0, selected: 0, promptTokens: 0, completionTokens: 0, truncated: 0, perCategory: new Map() };
  for (const row of rows) {
    const messages: ChatMessage[] = [{ role: 'system', content: skill }, { role: 'user', content: row.input }];
    const maxTokens = Math.min(budget.perCaseMax, Math.floor((budget.total - countPromptTokens(messages)) / n));
    const result = simulate({ model: 'sim-small', messages, maxTokens, temperature, n }, { seed: SEED });
    const passes = result.choices.map((c) => score(c.text, row));
    const pick = selector === 'verifier' ? result.choices.find((_, i) => passes[i])?.text ?? '' : majority(result.choices.map((c) => c.text));
    arm.pass1 += passes[0] ? 1 : 0;
    arm.passN += passes.some(Boolean) ? 1 : 0;
    arm.selected += score(pick, row) ? 1 : 0;
    arm.perCategory.set(row.category, (arm.perCategory.get(row.category) ?? 0) + (passes[0] ? 1 : 0));
    arm.promptTokens += result.usage.inputTokens ?? 0;
    arm.completionTokens += result.usage.outputTokens ?? 0;
    arm.truncated += result.choices.filter((c) => c.finishReason.unified === 'length').length;
    expect((result.usage.totalTokens ?? Infinity) <= budget.total).toBe(true);
  }
  const size = rows.length;
  return { ...arm, pass1: arm.pass1 / size, passN: arm.passN / size, selected: arm.selected / size };
}

const tokensPerSuccess = (arm: Arm, size: number) => (arm.promptTokens + arm.completionTokens) / (arm.pass1 * size);

const normalized: Score = (output, row) => output.trim().toLowerCase() === String(row.expected).trim().toLowerCase();
const contains: Score = (output, row) => output.includes(String(row.expected));

describe.each(['file', 'body'] as const)('examples (skill as %s)', (form) => {
  it('date-parser: v3 is a real n=1 gain, no category worse, tokens per success not worse', () => {
    const rows = readRows('date-parser', 'val');
    const budget = { total: 3000, perCaseMax: 1024 };
    const v2 = readSkill('date-parser', 'v2.md', form);
    const v3 = readSkill('date-parser', 'v3.md', form);
    const a = runArm(rows, v2, 1, budget, 0.2, normalized, 'majority');
    const b = runArm(rows, v3, 1, budget, 0.2, normalized, 'majority');
    expect(rows.length).toBeGreaterThanOrEqual(200);
    expect(a.pass1).toBeGreaterThanOrEqual(0.55);
    expect(a.pass1).toBeLessThanOrEqual(0.68);
    expect(b.pass1).toBeGreaterThanOrEqual(0.75);
    expect(b.pass1).toBeLessThanOrEqual(0.88);
    expect(b.pass1 - a.pass1).toBeGreaterThanOrEqual(0.12);
    for (const [category, passed] of a.perCategory) expect(b.perCategory.get(category) ?? 0, category).toBeGreaterThanOrEqual(passed);
    expect(tokensPerSuccess(b, rows.length) / tokensPerSuccess(a, rows.length)).toBeLessThanOrEqual(1.1);

    const c = runArm(rows, v2, 8, budget, 0.2, normalized, 'majority');
    const d = runArm(rows, v3, 8, budget, 0.2, normalized, 'majority');
    expect(c.truncated + d.truncated).toBe(0);
    expect(d.selected - c.selected).toBeGreaterThanOrEqual(0.12);
  });

  it('search-leak: same pass@1, a gain only with Best-of-N', async () => {
    const verifyModule = (await import(pathToFileURL(`${EXAMPLES}search-leak/verify.mjs`).href)) as { default: (output: string, row: Row) => { passed: boolean } };
    const verify: Score = (output, row) => verifyModule.default(output, row).passed;
    const rows = readRows('search-leak', 'val');
    const budget = { total: 1500, perCaseMax: 512 };
    const v1 = readSkill('search-leak', 'v1.md', form);
    const v2 = readSkill('search-leak', 'v2.md', form);
    const a = runArm(rows, v1, 1, budget, 0.2, verify, 'verifier');
    const b = runArm(rows, v2, 1, budget, 0.2, verify, 'verifier');
    const c = runArm(rows, v1, 8, budget, 0.2, verify, 'verifier');
    const d = runArm(rows, v2, 8, budget, 0.2, verify, 'verifier');
    expect(a.pass1).toBeGreaterThan(0.4);
    expect(a.pass1).toBeLessThan(0.6);
    expect(Math.abs(b.pass1 - a.pass1)).toBeLessThanOrEqual(0.05);
    expect(Math.abs(c.passN - a.pass1)).toBeLessThanOrEqual(0.05);
    expect(d.passN).toBeGreaterThanOrEqual(0.9);
    expect(d.passN - c.passN).toBeGreaterThanOrEqual(0.25);
    expect(d.selected - c.selected).toBeGreaterThanOrEqual(0.25);
  });

  it('verbose-judge: same accuracy, many more tokens, worse under the n=8 budget', () => {
    const rows = readRows('verbose-judge', 'val');
    const budget = { total: 2000, perCaseMax: 512 };
    const v1 = readSkill('verbose-judge', 'v1.md', form);
    const v2 = readSkill('verbose-judge', 'v2.md', form);
    const a = runArm(rows, v1, 1, budget, 0.2, contains, 'majority');
    const b = runArm(rows, v2, 1, budget, 0.2, contains, 'majority');
    expect(b.pass1).toBe(a.pass1);
    expect(a.truncated + b.truncated).toBe(0);
    expect(b.completionTokens).toBeGreaterThanOrEqual(5 * a.completionTokens);
    const c = runArm(rows, v1, 8, budget, 0.2, contains, 'majority');
    const d = runArm(rows, v2, 8, budget, 0.2, contains, 'majority');
    expect(d.selected).toBeLessThan(c.selected);
  });

  it('null: identical skills give identical arms', () => {
    const rows = readRows('null', 'val');
    const budget = { total: 1000, perCaseMax: 256 };
    const skill = readSkill('null', 'v1.md', form);
    const a = runArm(rows, skill, 1, budget, 0.7, contains, 'majority');
    const c = runArm(rows, skill, 8, budget, 0.7, contains, 'majority');
    expect(a.pass1).toBeGreaterThan(0.6);
    // Same skill, same seed: the candidate's arms are the baseline's, case by case.
    expect(runArm(rows, skill, 1, budget, 0.7, contains, 'majority')).toEqual(a);
    expect(c.passN).toBeGreaterThanOrEqual(a.pass1);
  });
});

describe('regression sets hold cases the baseline passes', () => {
  let verify: Score = () => false;
  beforeAll(async () => {
    const module = (await import(pathToFileURL(`${EXAMPLES}search-leak/verify.mjs`).href)) as { default: (output: string, row: Row) => { passed: boolean } };
    verify = (output, row) => module.default(output, row).passed;
  });

  it.each([
    ['date-parser', 'v2.md', 'v3.md', 0.2, 'normalized'],
    ['search-leak', 'v1.md', 'v2.md', 0.2, 'verify'],
    ['verbose-judge', 'v1.md', 'v2.md', 0.2, 'contains'],
    ['null', 'v1.md', 'v1.md', 0.7, 'contains'],
  ] as const)('%s', (example, baseline, candidate, temperature, scorer) => {
    const rows = readRows(example, 'regression');
    const score = scorer === 'normalized' ? normalized : scorer === 'contains' ? contains : verify;
    const budget = { total: 4000, perCaseMax: 1024 };
    const a = runArm(rows, readSkill(example, baseline, 'file'), 1, budget, temperature, score, 'majority');
    const b = runArm(rows, readSkill(example, candidate, 'file'), 1, budget, temperature, score, 'majority');
    expect(rows.length).toBeGreaterThanOrEqual(40);
    expect(a.pass1).toBeGreaterThanOrEqual(0.9);
    expect(b.pass1).toBeGreaterThanOrEqual(a.pass1);
  });
});
