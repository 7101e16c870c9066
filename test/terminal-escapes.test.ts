/**
 * Terminal controls from data, model output and upstreams never reach the terminal: a
 * reviewer's diff (OSC 52 clipboard write, a screen clear, a carriage return that hides a
 * line), learnings notes in `memory search/show`, case ids in `compare`, an upstream's error
 * body in `doctor`, and a dataset error. Every command runs through main(), the function the
 * CLI calls, with its output captured: no ESC (or other control) byte, and the escape shown.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CliIO } from '../src/cli/io.js';
import { main } from '../src/cli/main.js';
import { terminalSafe } from '../src/core/terminal-text.js';
import type { ResultRecord } from '../src/ledger/records.js';
import { ingestRun } from '../src/memory/ingest-run.js';
import { fakeRun, T0, tempStore } from '../src/memory/test-support/fixtures.js';
import { writeExperiment } from './support/experiment.js';
import { acceptLedgerEdits } from './support/accept-ledger-edits.js';

/** OSC 52 (write the clipboard), CSI 2J (clear the screen), CSI 1A (cursor up), a CR, a C1 CSI, a bidi override. */
const HOSTILE = '\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u001b[1Ahidden\rshown\u009b31m\u202etxt';
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

async function cli(args: string[], cwd = process.cwd()): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: { write: (t) => void (out += t) }, stderr: { write: (t) => void (err += t) }, env: {}, cwd, signal: new AbortController().signal };
  const code = await main(args, io);
  return { code, out, err };
}

function expectSafe(text: string): void {
  expect(text).not.toMatch(CONTROL);
  // …and the reader sees that something was there.
  expect(text).toContain('\\u001b]52;c;cm0gLXJmIH4=\\u0007\\u001b[2J');
}

test('the helper: every control made visible, newline and tab kept, idempotent', () => {
  expect(terminalSafe('a\u001b[31mred\u001b[0m\tb\nc\r\nd\re\u0000\u007f\u0085\u009b\u202e\u2066')).toBe('a\\u001b[31mred\\u001b[0m\tb\nc\nd\\u000de\\u0000\\u007f\\u0085\\u009b\\u202e\\u2066');
  expect(terminalSafe(terminalSafe(HOSTILE))).toBe(terminalSafe(HOSTILE));
  expect(terminalSafe('日期 ✓ 😀')).toBe('日期 ✓ 😀');
  // JSON that goes through it stays JSON with the same meaning.
  const json = JSON.stringify({ id: HOSTILE }, null, 2);
  expect(JSON.parse(terminalSafe(json))).toEqual({ id: HOSTILE });
});

test('review: a card whose diff carries OSC 52, a screen clear and a CR is shown inert', async () => {
  const { store, dir, file } = tempStore();
  await ingestRun(fakeRun({ run_id: 'bf-1', verdict: 'real_evolution' }), store, T0);
  const record = (await store.listRecords())[0];
  const at = T0.toISOString();
  await store.commit({ reviewItems: [{ expected: null, item: {
    review_id: 'rev-0001', kind: 'promotion', status: 'pending', memory_id: record?.memory_id ?? '', memory_version: 1, gate_id: null, reasons: [`promotion ${HOSTILE}`],
    card: { title: `promote ${HOSTILE}`, diff: `--- v2\n+++ v3\n@@ -1 +1,2 @@\n rules\n+${HOSTILE}\n`, same_budget: { delta: 0.22, ci95: [0.17, 0.28], cases: 200, split: 'test' }, tokens_per_success: { baseline: 1120, candidate: 980, growth: 0.875 }, p95_latency_ratio: 1.04, bestofn: { n: 8, delta: 0.13, total_tokens_ratio: 1.02 }, attribution: [HOSTILE], policy_changes: [], facts: [] },
    created_at: at, updated_at: at,
  } }] });
  store.close();
  const listed = await cli(['review', '--store', file, '--list'], dir);
  expect(listed.code, listed.err).toBe(0);
  expectSafe(listed.out);
  expect(listed.out).toContain('hidden\\u000dshown');
});

test('memory search and show: a learnings note written by an agent is shown inert', async () => {
  const { dir, file } = tempStore();
  mkdirSync(join(dir, 'notes', '.learnings'), { recursive: true });
  writeFileSync(join(dir, 'notes', '.learnings', 'poisoned.md'), `# Tool loop ${HOSTILE}\nRetries hid a timeout. ${HOSTILE}\n`);
  const provenance = ['--run', 'bf-9', '--base-url', 'sim://local', '--model', 'sim-small', '--budget', '3000', '--n', '1', '--verdict', 'no_gain'];
  const imported = await cli(['memory', 'import-learnings', join(dir, 'notes'), ...provenance, '--store', file], dir);
  expect(imported.code, imported.err).toBe(0);
  const search = await cli(['memory', 'search', 'timeout', '--store', file], dir);
  expect(search.code, search.err).toBe(0);
  expect(search.out).not.toMatch(CONTROL);
  expect(search.out).toContain('\\u001b');
  const id = /mem-[a-z0-9-]+-\d{3}/.exec(imported.out)?.[0] ?? '';
  const show = await cli(['memory', 'show', id, '--store', file], dir);
  expect(show.code, show.err).toBe(0);
  expectSafe(show.out);
  // --json stays valid JSON and keeps the exact text.
  const json = await cli(['memory', 'show', id, '--json', '--store', file], dir);
  expect(json.out).not.toMatch(CONTROL);
  expect(JSON.stringify(JSON.parse(json.out))).toContain(JSON.stringify(HOSTILE).slice(1, -1));
});

test('compare: case ids from a dataset are printed inert', async () => {
  const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 6 });
  const dataset = join(experiment.dir, 'data', 'val.jsonl');
  const rows = readFileSync(dataset, 'utf8').trim().split('\n').map((line, i) => JSON.stringify({ ...JSON.parse(line), id: `case-${i}-${HOSTILE}` }));
  writeFileSync(dataset, `${rows.join('\n')}\n`);
  const run = await cli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'a', '--no-report', '--sim-latency-scale', '0']);
  expect(run.code, run.err).toBe(0);
  expect(run.out + run.err).not.toMatch(CONTROL);
  // Run b is run a with one case flipped, so compare lists it.
  cpSync(join(experiment.runsDir, 'a'), join(experiment.runsDir, 'b'), { recursive: true });
  rmSync(join(experiment.runsDir, 'b', 'verdict.json'));
  const results = join(experiment.runsDir, 'b', 'results.jsonl');
  const flipped = readFileSync(results, 'utf8').trim().split('\n').map((line) => {
    const r = JSON.parse(line) as ResultRecord;
    return r.case_id.startsWith('case-0-') && r.arm === 'candidate_single' ? JSON.stringify({ ...r, passed: !r.passed, passed_any: !r.passed }) : line;
  });
  writeFileSync(results, `${flipped.join('\n')}\n`);
  acceptLedgerEdits(join(experiment.runsDir, 'b'));
  const compared = await cli(['compare', join(experiment.runsDir, 'a'), join(experiment.runsDir, 'b')]);
  expect(compared.code, compared.err).toBe(0);
  expectSafe(compared.out);
});

describe('doctor', () => {
  let upstream: Server;
  let url: string;
  beforeAll(async () => {
    // An upstream whose error message is an attack on the terminal of whoever runs doctor.
    upstream = createServer((_request, response) => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `bad model ${HOSTILE}`, type: 'invalid_request_error', code: null } }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await new Promise((resolve) => upstream.close(resolve));
  });

  test("the upstream's error body is shown inert", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-doctor-'));
    mkdirSync(join(dir, 'data'));
    writeFileSync(join(dir, 'data', 'val.jsonl'), '{"id":"a","input":"hi","expected":"x"}\n');
    writeFileSync(join(dir, 'experiment.yaml'), `experiment: doctor\nprovider: { protocol: openai-chat, base_url: "${url}" }\nmodels: { candidate: m }\ndatasets: { val: data/val.jsonl }\nretries: 1\n`);
    const doctor = await cli(['doctor', join(dir, 'experiment.yaml'), '--out', join(dir, 'runs')], dir);
    expect(doctor.code).toBe(2);
    expect(doctor.err).toContain('hello-world call failed');
    expectSafe(doctor.err);
  });
});

test('an error quoting a dataset line is shown inert', async () => {
  const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 3 });
  // A broken line the JSON parser quotes back, raw controls and all.
  writeFileSync(join(experiment.dir, 'data', 'val.jsonl'), `{"id":"a","input":"x","expected":"1"}\n${HOSTILE} not json\n`);
  const validated = await cli(['validate', experiment.configPath]);
  expect(validated.code).toBe(2);
  expect(validated.err).toContain('val.jsonl:2');
  expect(validated.err).not.toMatch(CONTROL);
  expect(validated.err).toContain(`Unexpected token '\\u001b', "\\u001b]52;c;cm0"...`);
});
