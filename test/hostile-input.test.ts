/**
 * Hostile and odd input (issue 11, items 9–19): each is exit 2 with one located line, no
 * stack trace, and nothing written where it should not be. Most go through main() (what the
 * CLI calls); what needs a real process (a FIFO, a port in use) spawns the CLI.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CliIO } from '../src/cli/io.js';
import { main } from '../src/cli/main.js';
import { startSimServer, type SimServer } from '../src/providers/sim/index.js';
import { ingestRun } from '../src/memory/ingest-run.js';
import { fakeRun, T0, tempStore } from '../src/memory/test-support/fixtures.js';
import { BIN, runCli } from './support/cli.js';
import { readTree, writeExperiment } from './support/experiment.js';

async function cli(args: string[], cwd = process.cwd(), env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: { write: (t) => void (out += t) }, stderr: { write: (t) => void (err += t) }, env, cwd, signal: new AbortController().signal };
  const code = await main(args, io);
  return { code, out, err };
}

/** Exit 2 and a first line `isobudget CMD: FILE:LINE…`, no stack. */
function expectLocated(result: { code: number; err: string }, file: string, line: number): void {
  expect(result.code, result.err).toBe(2);
  expect(result.err.split('\n')[0]).toMatch(new RegExp(`^isobudget [a-z ]+: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}(:\\d+)?: `));
  expect(result.err).not.toMatch(/internal error|\n\s+at /);
}

const BOMB = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 9 }, (_, i) => `b${i}: &b${i} [${Array(10).fill(i === 0 ? '*a' : `*b${i - 1}`).join(', ')}]`)].join('\n');

describe('9. YAML alias bombs', () => {
  test('in the experiment config: exit 2 at the first alias', async () => {
    const experiment = writeExperiment({ provider: '{ preset: sim }' });
    const text = readFileSync(experiment.configPath, 'utf8');
    writeFileSync(experiment.configPath, `${text}${BOMB}\n`);
    // The bomb's first alias is on its second line.
    const firstAliasLine = text.split('\n').length + 1;
    const result = await cli(['validate', experiment.configPath]);
    expectLocated(result, experiment.configPath, firstAliasLine);
    expect(result.err).toContain('alias bomb');
  });

  test('in a canary policy: exit 2 at the first alias', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-canary-'));
    writeFileSync(join(dir, 'policy.yaml'), `days: 7\n${BOMB}\n`);
    writeFileSync(join(dir, 'events.jsonl'), '{"variant":"canary","timestamp":"2026-06-01T00:00:00Z","passed":true,"tokens":1,"latency_ms":1,"n":1,"budget":10}\n');
    const result = await cli(['canary', 'analyze', join(dir, 'events.jsonl'), '--policy', join(dir, 'policy.yaml')]);
    expectLocated(result, join(dir, 'policy.yaml'), 3);
  });
});

describe('10–12. dataset paths and bytes', () => {
  function experimentWithDataset(path: string): string {
    const experiment = writeExperiment({ provider: '{ preset: sim }' });
    writeFileSync(experiment.configPath, readFileSync(experiment.configPath, 'utf8').replace('datasets: { val: data/val.jsonl }', `datasets: { val: "${path}" }`));
    return experiment.configPath;
  }

  test('a FIFO is refused at once, not waited on (a real process, which used to hang)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-fifo-'));
    const fifo = join(dir, 'val.jsonl');
    execFileSync('mkfifo', [fifo]);
    const config = experimentWithDataset(fifo);
    let timer: NodeJS.Timeout | undefined;
    const started = Date.now();
    const result = await runCli(['validate', config], {
      onSpawn: (child) => {
        timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      },
    });
    clearTimeout(timer);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`dataset file is a FIFO (named pipe), not a regular file: ${fifo}`);
  });

  test('/dev/zero is refused; a file over the size limit is refused before it is read', async () => {
    const zero = await cli(['validate', experimentWithDataset('/dev/zero')]);
    expect(zero.code).toBe(2);
    expect(zero.err).toContain('dataset file is a device, not a regular file: /dev/zero');
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-huge-'));
    const huge = join(dir, 'val.jsonl');
    writeFileSync(huge, '');
    truncateSync(huge, 300 * 1024 * 1024); // sparse: no disk, no time
    const big = await cli(['validate', experimentWithDataset(huge)]);
    expect(big.code).toBe(2);
    expect(big.err).toContain('dataset file is 300 MiB, over the 256 MiB limit');
  });

  test('non-UTF-8 bytes are reported by file, line and column, not replaced with U+FFFD', async () => {
    const experiment = writeExperiment({ provider: '{ preset: sim }' });
    const dataset = join(experiment.dir, 'data', 'val.jsonl');
    writeFileSync(dataset, Buffer.concat([Buffer.from('{"id":"a","input":"x","expected":"1"}\n{"id":"b","input":"caf'), Buffer.from([0xe9]), Buffer.from('","expected":"2"}\n')]));
    const result = await cli(['validate', experiment.configPath]);
    expectLocated(result, dataset, 2);
    expect(result.err).toContain(`${dataset}:2:23: dataset file is not valid UTF-8: byte 0xe9 at line 2, column 23`);
  });

  test('non-UTF-8 bytes in a seed ledger are reported by line, not replaced', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-ledger-'));
    const row = (arm: string, caseId: string): string => JSON.stringify({ run_id: 'r', case_id: caseId, arm, n: 1, total_tokens: 10, passed: true });
    const ledger = join(dir, 'ledger.jsonl');
    const [before, after] = row('baseline_single', 'caf#').split('#') as [string, string];
    // Line 3's case_id holds a latin-1 é (0xe9): not UTF-8.
    writeFileSync(ledger, Buffer.concat([Buffer.from(`${row('baseline_single', 'c1')}\n${row('candidate_single', 'c1')}\n${before}`), Buffer.from([0xe9]), Buffer.from(`${after}\n`)]));
    const result = await cli(['analyze', '--ledger', ledger]);
    expectLocated(result, ledger, 3);
    expect(result.err).toContain('the ledger is not valid UTF-8: byte 0xe9 at line 3');
  });

  test('a file that is not a dataset (../../etc/passwd) is never quoted', async () => {
    const experiment = writeExperiment({ provider: '{ preset: sim }' });
    const config = readFileSync(experiment.configPath, 'utf8').replace('datasets: { val: data/val.jsonl }', 'datasets: { val: ../../../../../../../../etc/passwd }');
    writeFileSync(experiment.configPath, config);
    const result = await cli(['validate', experiment.configPath]);
    expectLocated(result, '/etc/passwd', 1);
    expect(result.err).not.toContain('root');
    expect(result.err).toContain('not JSONL');
    // One located line and its hint, not one error per line of the file.
    expect(result.err.trimEnd().split('\n')).toHaveLength(2);
  });
});

test('10. SIGTERM ends a command even while it waits on input: a second one at once', async () => {
  const { store, dir, file } = tempStore();
  await ingestRun(fakeRun({ run_id: 'bf-1', verdict: 'real_evolution' }), store, T0);
  const record = (await store.listRecords())[0];
  const at = T0.toISOString();
  await store.commit({ reviewItems: [{ expected: null, item: {
    review_id: 'rev-0001', kind: 'promotion', status: 'pending', memory_id: record?.memory_id ?? '', memory_version: 1, gate_id: null, reasons: ['promotion'],
    card: { title: 'promote', diff: '', same_budget: { delta: 0.2, ci95: [0.1, 0.3], cases: 200, split: 'test' }, tokens_per_success: { baseline: 1, candidate: 1, growth: 1 }, p95_latency_ratio: 1, bestofn: null, attribution: [], policy_changes: [], facts: [] },
    created_at: at, updated_at: at,
  } }] });
  store.close();
  // Interactive review waits on stdin, which stays open.
  const child = spawn(process.execPath, [BIN, 'review', '--interactive', '--store', file], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await expect.poll(() => out, { timeout: 10_000 }).toContain('rev-0001');
  const started = Date.now();
  child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 200));
  child.kill('SIGTERM');
  expect(await exited).toBe(130);
  expect(Date.now() - started).toBeLessThan(5_000);
});

test('13. --run-id must be a plain name: nothing is written outside --out', async () => {
  const experiment = writeExperiment({ provider: '{ preset: sim }' });
  for (const id of ['../../x', '../escape', 'a/b', '..', '.hidden', '']) {
    const result = await cli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', id, '--quiet']);
    expect(result.code, id).toBe(2);
    expect(result.err.split('\n')[0]).toContain('--run-id must be a plain name');
  }
  expect(existsSync(experiment.runsDir)).toBe(false);
  expect(readdirSync(experiment.dir).sort()).toEqual(['data', 'experiment.yaml', 'skills']);
  // `evolve --id` names a loop directory the same way (it used to create ../escape first).
  const loops = join(experiment.dir, 'loops');
  const config = join(import.meta.dirname, '..', 'examples', 'evolve-date-parser', 'experiment.yaml');
  for (const id of ['../escape', 'a/b', '..']) {
    const result = await cli(['evolve', config, '--out', loops, '--id', id, '--store', join(experiment.dir, 'memory.sqlite'), '--quiet']);
    expect(result.code, id).toBe(2);
    expect(result.err.split('\n')[0]).toContain('--id must be a plain name');
  }
  expect(readdirSync(experiment.dir).sort()).toEqual(['data', 'experiment.yaml', 'skills']);
});

describe('14. credentials in base_url', () => {
  let upstream: SimServer;
  beforeAll(async () => {
    upstream = await startSimServer({ seed: 1 });
  });
  afterAll(async () => {
    await upstream.close();
  });

  test('never reach a call record, the manifest, the report or the terminal', async () => {
    const secret = 's3cr3t-pa55w0rd';
    const base = upstream.url.replace('http://', `http://alice:${secret}@`);
    const experiment = writeExperiment({ provider: `{ protocol: openai-chat, base_url: "${base}/v1" }`, cases: 4 });
    const result = await cli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'r', '--sim-latency-scale', '0']);
    expect(result.code, result.err).toBe(0);
    expect(result.out + result.err).not.toContain(secret);
    const files = readTree(join(experiment.runsDir, 'r'));
    expect(files.map((f) => f.file).some((f) => f.endsWith('calls.jsonl'))).toBe(true);
    for (const { file, text } of files) {
      expect(text, file).not.toContain(secret);
      expect(text, file).not.toContain('alice');
    }
    expect(readFileSync(join(experiment.runsDir, 'r', 'calls.jsonl'), 'utf8')).toContain(`"base_url":"${upstream.url}/v1"`);
    const doctor = await cli(['doctor', experiment.configPath, '--out', join(experiment.dir, 'doctor')]);
    expect(doctor.out + doctor.err).not.toContain(secret);
    expect(readFileSync(join(experiment.dir, 'doctor', 'doctor.jsonl'), 'utf8')).not.toContain(secret);
  });
});

describe('17. flags', () => {
  const experiment = writeExperiment({ provider: '{ preset: sim }' });
  test.each([
    [['--concurrency', '0'], '--concurrency must be ≥ 1, got 0 (as for the config key `concurrency`: Maximum model calls in flight (1–1024))'],
    [['--concurrency', '-3'], '--concurrency must be ≥ 1, got -3'],
    [['--concurrency=2000'], '--concurrency must be ≤ 1024, got 2000'],
    [['--concurrency', '1.5'], '--concurrency must be an integer, got 1.5'],
    [['--concurency', '3'], "unknown flag --concurency; did you mean --concurrency? (see 'isobudget run --help')"],
    [['--split'], '--split needs a value'],
    [['--quiet=1'], "--quiet takes no value, got '1'"],
    [['--sim-latency-scale', '-1'], '--sim-latency-scale must be ≥ 0, got -1'],
  ])('run %j: one clean line, exit 2', async (flags, message) => {
    const result = await cli(['run', experiment.configPath, ...flags]);
    expect(result.code).toBe(2);
    expect(result.err.startsWith(`isobudget run: ${message}`)).toBe(true);
    expect(result.err.endsWith('\n') && result.err.split('\n')).toHaveLength(2);
    expect(result.err).not.toContain('run: run:');
    expect(existsSync(experiment.runsDir)).toBe(false);
  });

  test('analyze flags that set gates are checked like the gates', async () => {
    const result = await cli(['analyze', '--ledger', experiment.configPath, '--confidence', '1.5']);
    expect(result.code).toBe(2);
    expect(result.err).toBe('isobudget analyze: --confidence must be < 1, got 1.5 (as for the config key `gates.confidence`: Two-sided confidence level of every interval, e.g. 0.95)\n');
  });

  test.each([
    [['validate'], 'isobudget validate: missing EXPERIMENT.yaml'],
    [['report'], 'isobudget report: pass one RUN_DIR'],
    [['runs', 'rm'], 'isobudget runs rm: pass exactly one run ID'],
    [['memory', 'show'], 'isobudget memory show: pass a MEMORY_ID'],
    [['gateway'], 'isobudget gateway: --upstream URL is required'],
  ])('%j: a message that names its command is not prefixed with it twice', async (argv, first) => {
    const result = await cli(argv);
    expect(result.code).toBe(2);
    expect(result.err.split('\n')[0]).toBe(first);
  });

  test('an unknown command gets a did-you-mean; a prototype name is just unknown', async () => {
    expect((await cli(['rnu'])).err).toContain("unknown command 'rnu'; did you mean 'run'?");
    const proto = await cli(['constructor']);
    expect(proto.code).toBe(2);
    expect(proto.err).toContain("unknown command 'constructor'");
  });
});

describe('18. sim serve on a port in use', () => {
  let holder: Server;
  let port: number;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => holder.close(resolve));
  });

  test('exit 2 and one line naming the address (a real process)', async () => {
    const result = await runCli(['sim', 'serve', '--port', String(port)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`isobudget sim: cannot listen on 127.0.0.1:${port}: the port is already in use (stop what uses it, or pick another with --port; --port 0 picks a free one)\n`);
  });

  test('a negative latency scale is refused before listening (sim serve, evolve)', async () => {
    expect((await cli(['sim', 'serve', '--latency-scale', '-2'])).err).toBe('isobudget sim: --latency-scale must be ≥ 0, got -2\n');
    const evolve = await cli(['evolve', join(import.meta.dirname, '..', 'examples', 'evolve-date-parser', 'experiment.yaml'), '--sim-latency-scale', '-0.5']);
    expect(evolve.code).toBe(2);
    expect(evolve.err).toBe('isobudget evolve: --sim-latency-scale must be ≥ 0, got -0.5\n');
  });

  test('a port out of range is refused before listening', async () => {
    const result = await cli(['sim', 'serve', '--port', '70000']);
    expect(result.code).toBe(2);
    expect(result.err).toBe("isobudget sim: --port must be a port number 0–65535, got '70000'\n");
  });
});

test('19. a canary event with an unknown variant is exit 2 with its line, not counted as canary', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-canary-'));
  const event = (variant: string): string => JSON.stringify({ variant, timestamp: '2026-06-01T00:00:00Z', passed: true, tokens: 10, latency_ms: 5, n: 1, budget: 100 });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'events.jsonl'), `${event('canary')}\n${event('control')}\n${event('treatment')}\n`);
  const result = await cli(['canary', 'analyze', join(dir, 'events.jsonl')]);
  expect(result.code).toBe(2);
  expect(result.err.split('\n')[0]).toBe(`isobudget canary: ${join(dir, 'events.jsonl')}:3: variant: must be one of canary, control (what \`isobudget canary assign\` prints)`);
});
