/** Writes a throwaway experiment (YAML + skills + JSONL) into a temp dir for end-to-end tests. */
import { mkdtempSync, mkdirSync, writeFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ExperimentSpec {
  provider: string;
  budget?: string;
  extra?: string;
  cases?: number;
  /** Skill texts for baseline and candidate. */
  skills?: { baseline: string; candidate: string };
}

export function arithmeticCases(count: number): string {
  return `${Array.from({ length: count }, (_, i) => JSON.stringify({ id: `c${i + 1}`, input: `What is ${i + 1} + ${(i + 1) * 2}?`, expected: String((i + 1) * 3), category: i % 2 ? 'odd' : 'even' })).join('\n')}\n`;
}

export function writeExperiment(spec: ExperimentSpec): { dir: string; configPath: string; runsDir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-e2e-'));
  mkdirSync(join(dir, 'data'));
  mkdirSync(join(dir, 'skills'));
  writeFileSync(join(dir, 'data', 'val.jsonl'), arithmeticCases(spec.cases ?? 12));
  const skills = spec.skills ?? { baseline: 'Answer arithmetic questions.', candidate: 'Answer arithmetic questions. Show the sum, then the answer.' };
  writeFileSync(join(dir, 'skills', 'baseline.md'), `---\nname: arith\ndescription: test\nversion: 1\n---\n${skills.baseline}\n`);
  writeFileSync(join(dir, 'skills', 'candidate.md'), `---\nname: arith\ndescription: test\nversion: 2\n---\n${skills.candidate}\n`);
  const yaml = [
    'experiment: e2e',
    `provider: ${spec.provider}`,
    'variants:',
    '  baseline: { id: arith-v1, model: sim-small, skill: skills/baseline.md }',
    '  candidate: { id: arith-v2, model: sim-small, skill: skills/candidate.md }',
    `budget: ${spec.budget ?? '{ total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1, 4] }'}`,
    'datasets: { val: data/val.jsonl }',
    'scorer: numeric',
    'selector: majority',
    'seed: 11',
    'concurrency: 8',
    'retries: { max_attempts: 6, initial_delay_ms: 5, max_delay_ms: 50 }',
    spec.extra ?? '',
  ].join('\n');
  const configPath = join(dir, 'experiment.yaml');
  writeFileSync(configPath, `${yaml}\n`);
  return { dir, configPath, runsDir: join(dir, 'runs') };
}

/** Every file under a directory, as text (for secret scans). */
export function readTree(dir: string): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) out.push(...readTree(file));
    else out.push({ file, text: readFileSync(file).toString('latin1') });
  }
  return out;
}
