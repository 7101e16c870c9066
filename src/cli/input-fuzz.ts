/**
 * Input fuzzing (not part of the public API; built so bench/ can run it): seeded mutations of real inputs (an example's
 * YAML, a dataset line, a seed-ledger line), each fed to main() — the function the CLI
 * calls — with its output captured. An input may be refused, never mishandled: the exit code
 * is 0 or 2, no stack trace is printed, no ESC (or C1 CSI) reaches the output, and no call
 * takes longer than 10 s (of CPU, or of wall time on a free machine). Shared by test/fuzz.test.ts (a short run) and
 * bench/fuzz-input.mjs (10,000 mutations of each).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIO } from './io.js';
import { main } from './main.js';
import { createRng, type Rng } from '../stats/rng.js';

/** Longest an input may keep the CLI busy (ms). */
export const FUZZ_TIME_LIMIT_MS = 10_000;

/** What users, tools and attackers put in files: syntax, controls, prototype names, odd numbers, bad bytes. */
const TOKENS: ReadonlyArray<string | Buffer> = [
  '\u001b[2J', '\u001b]52;c;cm0gLXJmIH4=\u0007', '\u001b[1A\r', '\u009b31m', '\u202e', '\r', '\t', '\u0000', '\uFEFF',
  '\\u001b[2J', '\\u0000', '\\ud800', '\\udc00x', '\\"', '"', "'", ':', ': ', '\n', '\n  ', '\n- ', '- ', '[', ']', '{', '}', ',', '#',
  '&a ', '*a', '<<: *a', '!!binary ', '!!js/function ', '!!str ', '? ', '|\n', '>-\n', '---\n', '...\n', '%YAML 1.1\n',
  '__proto__', 'constructor', 'toString', 'hasOwnProperty', '__proto__: {}', '"__proto__": {}',
  '-1', '0', '-0', '1.5', '1e309', '-1e309', 'NaN', '.inf', 'null', 'true', '~', '9'.repeat(40), 'x'.repeat(3000),
  Buffer.from([0xff, 0xfe]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xe9]), Buffer.from([0xf4, 0x90, 0x80, 0x80]),
];

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[rng.int(items.length)] as T;
}

function lines(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, start)) {
    out.push(bytes.subarray(start, i + 1));
    start = i + 1;
  }
  if (start < bytes.length) out.push(bytes.subarray(start));
  return out;
}

/** One to three random edits of `input`: bytes changed, tokens inserted, ranges and lines cut, moved or repeated. */
export function mutate(rng: Rng, input: Buffer): Buffer {
  let bytes = input;
  const edits = 1 + rng.int(3);
  for (let e = 0; e < edits; e += 1) {
    const at = rng.int(bytes.length + 1);
    switch (rng.int(9)) {
      case 0: {
        if (bytes.length === 0) break;
        const copy = Buffer.from(bytes);
        copy[Math.min(at, copy.length - 1)] = rng.int(256);
        bytes = copy;
        break;
      }
      case 1:
      case 2: {
        const token = pick(rng, TOKENS);
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.isBuffer(token) ? token : Buffer.from(token), bytes.subarray(at)]);
        break;
      }
      case 3:
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(Math.min(bytes.length, at + 1 + rng.int(20)))]);
        break;
      case 4: {
        const all = lines(bytes);
        if (all.length === 0) break;
        const i = rng.int(all.length);
        all.splice(i, 0, all[i] as Buffer);
        bytes = Buffer.concat(all);
        break;
      }
      case 5: {
        const all = lines(bytes);
        if (all.length <= 1) break;
        all.splice(rng.int(all.length), 1);
        bytes = Buffer.concat(all);
        break;
      }
      case 6: {
        const all = lines(bytes);
        if (all.length <= 1) break;
        const i = rng.int(all.length);
        const j = rng.int(all.length);
        [all[i], all[j]] = [all[j] as Buffer, all[i] as Buffer];
        bytes = Buffer.concat(all);
        break;
      }
      case 7:
        bytes = bytes.subarray(0, at);
        break;
      default: {
        // A value replaced: after the next ':' (YAML, JSON) up to the end of that value.
        const colon = bytes.indexOf(':', at);
        if (colon === -1) break;
        let end = colon + 1;
        while (end < bytes.length && ![10, 44, 125, 93].includes(bytes[end] as number)) end += 1;
        const token = pick(rng, TOKENS);
        bytes = Buffer.concat([bytes.subarray(0, colon + 1), Buffer.from(' '), Buffer.isBuffer(token) ? token : Buffer.from(token), bytes.subarray(end)]);
      }
    }
  }
  return bytes;
}

export interface CliOutcome {
  code: number;
  out: string;
  err: string;
  /** Wall time (ms). */
  ms: number;
  /** CPU time of this process during the call (ms). */
  cpuMs: number;
}

/** main() with its output captured, as the CLI runs it. */
export async function runMain(argv: string[], cwd: string): Promise<CliOutcome> {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: { write: (t) => void (out += t) }, stderr: { write: (t) => void (err += t) }, env: {}, cwd, signal: new AbortController().signal };
  const started = performance.now();
  const cpu = process.cpuUsage();
  const code = await main(argv, io);
  const used = process.cpuUsage(cpu);
  return { code, out, err, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

/**
 * How much longer wall time runs than on a free machine: the run queue per core (the test
 * suite shares 2 cores with other work). A hang — a read that never returns — exceeds any
 * stretched limit; a busy machine should not look like one.
 */
export function loadFactor(): number {
  return Math.max(1, (loadavg()[0] ?? 0) / Math.max(1, cpus().length));
}

/**
 * What is wrong with an outcome, or undefined when the input was handled (run or refused).
 * Time: CPU time over 10 s, or wall time over 10 s stretched by the machine's load.
 */
export function outcomeProblem(outcome: { code: number | null; out: string; err: string; ms: number; cpuMs?: number }): string | undefined {
  if (outcome.code !== 0 && outcome.code !== 2) return `exit code ${outcome.code}`;
  const text = outcome.out + outcome.err;
  if (/internal error|\n\s+at [^\n]*[(:]\d+/.test(text)) return 'stack trace';
  if (/[\u001b\u009b]/.test(text)) return 'ESC on the terminal';
  if (outcome.cpuMs !== undefined && outcome.cpuMs > FUZZ_TIME_LIMIT_MS) return `took ${Math.round(outcome.cpuMs)} ms of CPU`;
  if (outcome.ms > FUZZ_TIME_LIMIT_MS * loadFactor()) return `took ${Math.round(outcome.ms)} ms (load factor ${loadFactor().toFixed(1)})`;
  return undefined;
}

export interface FuzzTarget {
  name: string;
  /** The input before mutation. */
  base: Buffer;
  /** Writes a mutated input and returns main()'s argv and cwd. */
  prepare(input: Buffer, iteration: number): { argv: string[]; cwd: string };
}

export interface FuzzFailure {
  target: string;
  iteration: number;
  problem: string;
  /** The mutated input (base64), to replay it. */
  input: string;
  output: string;
}

export interface FuzzReport {
  runs: number;
  /** Runs per exit code. */
  codes: Record<string, number>;
  failures: FuzzFailure[];
  /** Longest call, wall time (ms). */
  slowestMs: number;
  /** Most CPU time of a call (ms). */
  mostCpuMs: number;
}

export async function fuzz(targets: readonly FuzzTarget[], options: { iterations: number; seed: number; maxFailures?: number }): Promise<FuzzReport> {
  const report: FuzzReport = { runs: 0, codes: {}, failures: [], slowestMs: 0, mostCpuMs: 0 };
  for (const [index, target] of targets.entries()) {
    const rng = createRng(options.seed * 1000 + index);
    for (let iteration = 0; iteration < options.iterations; iteration += 1) {
      const input = mutate(rng, target.base);
      const { argv, cwd } = target.prepare(input, iteration);
      let outcome: CliOutcome;
      try {
        outcome = await runMain(argv, cwd);
      } catch (error) {
        outcome = { code: -1, out: '', err: `main threw: ${error instanceof Error ? error.stack : String(error)}`, ms: 0, cpuMs: 0 };
      }
      report.runs += 1;
      report.codes[String(outcome.code)] = (report.codes[String(outcome.code)] ?? 0) + 1;
      report.slowestMs = Math.max(report.slowestMs, outcome.ms);
      report.mostCpuMs = Math.max(report.mostCpuMs, outcome.cpuMs);
      const problem = outcomeProblem(outcome);
      if (problem) {
        report.failures.push({ target: target.name, iteration, problem, input: input.toString('base64'), output: (outcome.out + outcome.err).slice(0, 2000) });
        if (report.failures.length >= (options.maxFailures ?? 20)) return report;
      }
    }
  }
  return report;
}

/**
 * The fuzz targets: every example's experiment.yaml (in a private copy of the example, so
 * relative paths resolve; `validate`, config only except every tenth), one dataset line
 * (`validate` of a one-dataset experiment) and one seed-ledger line (`analyze --ledger`).
 */
export function fuzzTargets(examplesDir: string): { targets: FuzzTarget[]; cleanup(): void } {
  const scratch = mkdtempSync(join(tmpdir(), 'isobudget-fuzz-'));
  const targets: FuzzTarget[] = [];
  for (const name of readdirSync(examplesDir).sort()) {
    if (!existsSync(join(examplesDir, name, 'experiment.yaml'))) continue;
    const dir = join(scratch, name);
    cpSync(join(examplesDir, name), dir, { recursive: true });
    const file = join(dir, 'fuzzed.yaml');
    targets.push({
      name: `examples/${name}/experiment.yaml`,
      base: readFileSync(join(dir, 'experiment.yaml')),
      prepare: (input, iteration) => {
        writeFileSync(file, input);
        return { argv: ['validate', file, ...(iteration % 10 === 0 ? [] : ['--config-only'])], cwd: dir };
      },
    });
  }
  const datasetDir = join(scratch, 'dataset');
  mkdirSync(datasetDir);
  const rows = readFileSync(join(examplesDir, 'date-parser', 'data', 'val.jsonl'), 'utf8').split('\n').slice(0, 3);
  writeFileSync(join(datasetDir, 'experiment.yaml'), 'experiment: fuzz\nprovider: { preset: sim }\ndatasets: { val: val.jsonl }\n');
  targets.push({
    name: 'dataset line',
    base: Buffer.from(`${rows[0]}\n`),
    prepare: (input) => {
      writeFileSync(join(datasetDir, 'val.jsonl'), Buffer.concat([input, Buffer.from(`\n${rows[1]}\n${rows[2]}\n`)]));
      return { argv: ['validate', join(datasetDir, 'experiment.yaml')], cwd: datasetDir };
    },
  });
  const ledgerDir = join(scratch, 'ledger');
  mkdirSync(ledgerDir);
  const seedRow = (arm: string, caseId: string, passed: boolean): string => JSON.stringify({ run_id: 'bf-1', case_id: caseId, arm, n: arm.endsWith('_4') ? 4 : 1, model: 'm', base_url: 'https://taotoken.net/api', prompt_tokens: 812, completion_tokens: 245, total_tokens: 1057, latency_ms: 1830, passed, judge_score: 0.8 });
  const others = ['baseline_single', 'baseline_best_of_4', 'candidate_best_of_4'].flatMap((arm) => ['c1', 'c2', 'c3'].map((id, i) => seedRow(arm, id, i !== 1)));
  const candidate = ['c2', 'c3'].map((id) => seedRow('candidate_single', id, true));
  targets.push({
    name: 'seed-ledger line',
    base: Buffer.from(seedRow('candidate_single', 'c1', true)),
    prepare: (input) => {
      writeFileSync(join(ledgerDir, 'ledger.jsonl'), Buffer.concat([Buffer.from(`${others.join('\n')}\n`), input, Buffer.from(`\n${candidate.join('\n')}\n`)]));
      return { argv: ['analyze', '--ledger', join(ledgerDir, 'ledger.jsonl'), '--rounds', '100'], cwd: ledgerDir };
    },
  });
  return { targets, cleanup: () => rmSync(scratch, { recursive: true, force: true }) };
}
