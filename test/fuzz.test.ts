/**
 * Fuzzing the CLI's input (issue 11, "Must show"): seeded random mutations of every
 * example's YAML, of a dataset line and of a seed-ledger line, fed to main() in-process (the
 * function the CLI calls; spawning a process per input would take hours), plus a corpus of
 * hostile files fed to the real CLI: an alias bomb, a FIFO, binary noise, a 100 MB line,
 * non-UTF-8 bytes, lone surrogates, prototype names and ANSI/OSC payloads. Every input is
 * handled — exit 0 or 2 — with no stack trace, no ESC byte on the terminal, and no run
 * past 10 s. `node bench/run-all.mjs --only fuzz-input` runs 10,000 mutations of each.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createRng } from '../src/stats/rng.js';
import { FUZZ_TIME_LIMIT_MS, fuzz, fuzzTargets, loadFactor, outcomeProblem, runMain } from '../src/cli/input-fuzz.js';
import { BIN } from './support/cli.js';

const EXAMPLES = join(import.meta.dirname, '..', 'examples');
/** Mutations per target here; ISOBUDGET_FUZZ_ITERATIONS raises it (the bench runs 10,000). */
const ITERATIONS = Number(process.env.ISOBUDGET_FUZZ_ITERATIONS ?? 300);

test(`${ITERATIONS} mutations of each example YAML, a dataset line and a seed-ledger line: all handled`, async () => {
  const { targets, cleanup } = fuzzTargets(EXAMPLES);
  try {
    const report = await fuzz(targets, { iterations: ITERATIONS, seed: 11 });
    expect(report.failures.map((f) => `${f.target} #${f.iteration}: ${f.problem}\n${f.output}`)).toEqual([]);
    expect(report.runs).toBe(targets.length * ITERATIONS);
    // Both outcomes occur: the mutations reach past the parser.
    expect(report.codes['0']).toBeGreaterThan(0);
    expect(report.codes['2']).toBeGreaterThan(0);
  } finally {
    cleanup();
  }
}, 300_000);

test('inputs the long fuzz run (bench/fuzz-input.mjs) found: handled', async () => {
  const { targets, cleanup } = fuzzTargets(EXAMPLES);
  const replay = async (name: string, input: string): Promise<string | undefined> => {
    const target = targets.find((t) => t.name === name);
    if (!target) throw new Error(`no target ${name}`);
    const { argv, cwd } = target.prepare(Buffer.from(input), 0);
    const outcome = await runMain(argv, cwd);
    return outcomeProblem(outcome) ?? (outcome.code === 2 ? undefined : `exit ${outcome.code}`);
  };
  try {
    // An empty list item where a tool belongs: a cross-field check read `.name` of null.
    const toolLoop = readFileSync(join(EXAMPLES, 'tool-loop', 'experiment.yaml'), 'utf8').replace(/ {4}- name: lookup/, '    - \n    - name: lookup');
    expect(await replay('examples/tool-loop/experiment.yaml', toolLoop)).toBeUndefined();
    // Numbers past ±1.8e308 parse as ±Infinity: the bootstrap threw on them.
    for (const tokens of ['1e309', '-1e309']) {
      expect(await replay('seed-ledger line', `{"run_id":"bf-1","case_id":"c1","arm":"candidate_single","n":1,"total_tokens": ${tokens},"passed":true}`), tokens).toBeUndefined();
    }
  } finally {
    cleanup();
  }
});

// ---------------------------------------------------------------- the hostile corpus
const corpus = mkdtempSync(join(tmpdir(), 'isobudget-hostile-'));
afterAll(() => rmSync(corpus, { recursive: true, force: true }));

const ESC = '\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u001b[1A\r\u009b31m';
const BOMB = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 9 }, (_, i) => `b${i}: &b${i} [${Array(10).fill(i === 0 ? '*a' : `*b${i - 1}`).join(', ')}]`)].join('\n');
const seedRow = (fields: Record<string, unknown>): string => JSON.stringify({ run_id: 'bf-1', case_id: 'c1', arm: 'baseline_single', n: 1, model: 'm', base_url: 'https://x', prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, latency_ms: 1, passed: true, ...fields });
const event = (fields: Record<string, unknown>): string => JSON.stringify({ variant: 'canary', timestamp: '2026-06-01T00:00:00Z', passed: true, tokens: 10, latency_ms: 5, n: 1, budget: 100, ...fields });

function file(name: string, content: string | Buffer): string {
  const path = join(corpus, name);
  writeFileSync(path, content);
  return path;
}

/** An experiment whose val split is `dataset` (a path or the rows to write). */
function experiment(name: string, dataset: string | string[], extra = ''): string {
  const dir = join(corpus, name);
  mkdirSync(dir, { recursive: true });
  const val = Array.isArray(dataset) ? file(`${name}/val.jsonl`, `${dataset.join('\n')}\n`) : dataset;
  return file(`${name}/experiment.yaml`, `experiment: hostile\nprovider: { preset: sim }\nmodels: { candidate: sim-small }\nbudget: { total_tokens_per_case: 2000, per_case_max_tokens: 128, best_of_n: [1, 2] }\ndatasets: { val: "${val}" }\nscorer: exact\n${extra}`);
}

/** `inProcess`: through main() in this process (data-content cases; the file-system ones spawn). */
function hostileCorpus(): Array<{ name: string; argv: string[]; inProcess?: boolean }> {
  const rng = createRng(7);
  const binary = file('binary.bin', Buffer.from(Array.from({ length: 65_536 }, () => rng.int(256))));
  const fifo = join(corpus, 'fifo');
  execFileSync('mkfifo', [fifo]);
  // 100 MB on one line: a valid row with a huge input (as a dataset; as a config it is over the
  // 4 MiB limit). As a seed ledger it is streamed (checked by hand: exit 2, ~2 s of CPU).
  const hugeRow = join(corpus, 'huge-row.jsonl');
  const fd = openSync(hugeRow, 'w');
  writeSync(fd, '{"id":"huge","input":"');
  const chunk = Buffer.alloc(1 << 20, 'a');
  for (let i = 0; i < 100; i += 1) writeSync(fd, chunk);
  writeSync(fd, '","expected":"a"}\n');
  closeSync(fd);
  const nonUtf8 = Buffer.concat([Buffer.from('{"id":"a","input":"caf'), Buffer.from([0xe9]), Buffer.from('","expected":"x"}\n')]);
  const protoRows = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'].map((id) => JSON.stringify({ id, input: 'What is 1 + 1?', expected: '2', category: id, metadata: { __proto__: { polluted: true } } }).replace('"metadata":{}', '"metadata":{"__proto__":{"polluted":true}}'));
  const surrogateRows = [String.raw`{"id":"lone-\ud800","input":"What is 1 + 1?","expected":"2","category":"c-\udc00"}`, '{"id":"ok","input":"What is 2 + 2?","expected":"4"}'];
  const escRows = [JSON.stringify({ id: `esc-${ESC}`, input: `Say ${ESC}`, expected: ESC, category: `cat-${ESC}` }), JSON.stringify({ id: 'plain', input: 'What is 2 + 2?', expected: '4' })];
  return [
    { name: 'alias bomb as config', argv: ['validate', file('bomb.yaml', `experiment: x\n${BOMB}\n`)] },
    { name: 'alias bomb as canary policy', argv: ['canary', 'analyze', file('events.jsonl', `${event({})}\n`), '--policy', file('bomb-policy.yaml', `${BOMB}\n`)] },
    { name: 'FIFO as config', argv: ['validate', fifo] },
    { name: 'FIFO as dataset', argv: ['validate', experiment('fifo-dataset', fifo)] },
    { name: 'FIFO as seed ledger', argv: ['analyze', '--ledger', fifo] },
    { name: 'FIFO as canary events', argv: ['canary', 'analyze', fifo] },
    { name: '/dev/zero as dataset', argv: ['validate', experiment('zero-dataset', '/dev/zero')] },
    { name: 'binary as config', argv: ['validate', binary] },
    { name: 'binary as dataset', argv: ['validate', experiment('binary-dataset', binary)] },
    { name: 'binary as seed ledger', argv: ['analyze', '--ledger', binary] },
    { name: 'binary as canary events and policy', argv: ['canary', 'analyze', binary, '--policy', binary] },
    { name: '100 MB line as dataset', argv: ['validate', experiment('huge-dataset', hugeRow)] },
    { name: '100 MB line as config', argv: ['validate', hugeRow] },
    { name: 'non-UTF-8 dataset', argv: ['validate', experiment('latin1-dataset', file('latin1.jsonl', nonUtf8))] },
    { name: 'non-UTF-8 config', argv: ['validate', file('latin1.yaml', Buffer.concat([Buffer.from('experiment: caf'), Buffer.from([0xe9]), Buffer.from('\n')]))] },
    { name: 'UTF-8-encoded surrogates in a dataset', argv: ['validate', experiment('cesu-dataset', file('cesu.jsonl', Buffer.concat([Buffer.from('{"id":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('","input":"x","expected":"y"}\n')])))] },
    { name: 'lone surrogates in ids and categories: a whole run with its report', argv: ['run', experiment('surrogate-run', surrogateRows), '--out', join(corpus, 'runs'), '--sim-latency-scale', '0'] },
    { name: 'prototype names as ids, categories and keys: a whole run', argv: ['run', experiment('proto-run', protoRows), '--out', join(corpus, 'runs'), '--sim-latency-scale', '0', '--no-report'], inProcess: true },
    { name: 'prototype names as config keys', argv: ['validate', file('proto.yaml', 'experiment: x\n__proto__: { polluted: true }\nconstructor: 1\nprovider: { preset: sim, toString: 2 }\ndatasets: { val: v.jsonl, __proto__: x }\n')], inProcess: true },
    { name: 'prototype names in a seed ledger', argv: ['analyze', '--ledger', file('proto-ledger.jsonl', `${['baseline_single', 'candidate_single'].map((arm) => seedRow({ arm, case_id: '__proto__', category: 'constructor' })).join('\n')}\n`)], inProcess: true },
    { name: 'ANSI/OSC payloads in a dataset: a whole run', argv: ['run', experiment('esc-run', escRows), '--out', join(corpus, 'runs'), '--sim-latency-scale', '0', '--no-report'], inProcess: true },
    { name: 'ANSI/OSC payloads in config values', argv: ['validate', file('esc.yaml', `experiment: "x${ESC}"\nprovider: { preset: "${ESC}" }\n"${ESC}": 1\n`.replace(/\u001b/g, '\\e').replace(/\u0007/g, '\\a').replace(/\r/g, '\\r').replace(/\u009b/g, '\\x9b'))], inProcess: true },
    { name: 'ANSI/OSC payloads in a seed ledger', argv: ['analyze', '--ledger', file('esc-ledger.jsonl', `${['baseline_single', 'candidate_single'].map((arm) => seedRow({ arm, case_id: ESC, category: ESC })).join('\n')}\n${seedRow({ arm: ESC })}\n`)], inProcess: true },
    { name: 'ANSI/OSC payloads in canary events', argv: ['canary', 'analyze', file('esc-events.jsonl', `${event({ case_id: ESC })}\n${event({ variant: ESC })}\n`)], inProcess: true },
  ];
}

function spawnCli(argv: string[]): Promise<{ code: number | null; out: string; err: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...argv], { cwd: corpus, env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    // Killed past the hang limit (10 s, stretched by the machine's load; see loadFactor).
    const timer = setTimeout(() => child.kill('SIGKILL'), FUZZ_TIME_LIMIT_MS * loadFactor() + 1_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      // The CLI writes JS strings as UTF-8, so decoding hides nothing: ESC (0x1b) never occurs
      // inside a multi-byte character, and a C1 CSI is U+009B once decoded.
      resolve({ code, out: Buffer.concat(out).toString('utf8'), err: Buffer.concat(err).toString('utf8'), ms: performance.now() - started });
    });
  });
}

test('a corpus of hostile files, through the real CLI (and main() for content-only cases): all handled', async () => {
  const cases = hostileCorpus();
  const problems: string[] = [];
  const codes: Record<string, number | null> = {};
  // Two at a time: each is its own process.
  let next = 0;
  await Promise.all([0, 1].map(async () => {
    while (next < cases.length) {
      const item = cases[next++] as (typeof cases)[number];
      const outcome = item.inProcess ? await runMain(item.argv, corpus) : await spawnCli(item.argv);
      codes[item.name] = outcome.code;
      const problem = outcomeProblem(outcome);
      if (problem) problems.push(`${item.name}: ${problem}\n${(outcome.out + outcome.err).slice(0, 1500)}`);
    }
  }));
  expect(problems).toEqual([]);
  // The runs over hostile ids complete; the refusals refuse.
  expect(codes['lone surrogates in ids and categories: a whole run with its report']).toBe(0);
  expect(codes['prototype names as ids, categories and keys: a whole run']).toBe(0);
  expect(codes['ANSI/OSC payloads in a dataset: a whole run']).toBe(0);
  expect(codes['FIFO as dataset']).toBe(2);
  expect(codes['alias bomb as config']).toBe(2);
}, 600_000);
