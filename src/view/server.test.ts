/**
 * The viewer's server as an attacker and an unlucky operator meet it: decisions without the
 * token, with a wrong token, from another origin, as a simple (form-like) request, through a
 * rebound Host name; torn and garbage run files; a FIFO where a run file should be; an
 * environment holding a key. Real HTTP on 127.0.0.1.
 */
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ingestRun } from '../memory/ingest-run.js';
import { fakeRun, T0 } from '../memory/test-support/fixtures.js';
import { SqliteMemoryStore } from '../memory/store/sqlite-store.js';
import { writeSyntheticRun } from '../report/html/synthetic-run.js';
import { RunSource } from './run-source.js';
import { startViewServer, type ViewServer } from './server.js';
import { ViewApp } from './view-app.js';

const TOKEN = 'test-token-0123456789abcdef';

function call(url: string, options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  const target = new URL(options.path, url);
  return new Promise((resolve, reject) => {
    const req = request(target, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('view server', () => {
  let server: ViewServer;
  let store: SqliteMemoryStore;
  let cwd: string;

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'isobudget-view-server-'));
    writeSyntheticRun({ dir: join(cwd, 'runs', 'bf-synthetic'), cases: 30, rounds: 50 });
    // A run whose results end in a torn line and carry garbage in the middle.
    writeSyntheticRun({ dir: join(cwd, 'runs', 'torn'), cases: 10, rounds: 50 });
    appendFileSync(join(cwd, 'runs', 'torn', 'results.jsonl'), 'not json at all\n{"kind": "result", "schema');
    mkdirSync(join(cwd, 'runs', 'empty'));
    store = new SqliteMemoryStore(join(cwd, 'memory.sqlite'));
    await ingestRun(fakeRun({ run_id: 'bf-val-1', verdict: 'real_evolution', candidate_id: 'skill-x-v2' }), store, T0);
    const record = (await store.listRecords())[0];
    const at = T0.toISOString();
    await store.commit({ reviewItems: [{ expected: null, item: { review_id: 'rev-0001', kind: 'promotion', status: 'pending', memory_id: record?.memory_id ?? '', memory_version: 1, gate_id: null, reasons: ['layer 5'], card: { title: 'promote', diff: '', same_budget: null, tokens_per_success: null, p95_latency_ratio: null, bestofn: null, attribution: [], policy_changes: [], facts: [] }, created_at: at, updated_at: at } }] });
    process.env['ISOBUDGET_VIEW_TEST_SECRET'] = 'sk-live-THIS-MUST-NEVER-SHOW-0001';
    const runs = new RunSource(join(cwd, 'runs'), cwd);
    const app = new ViewApp({ runs, store, storeLabel: 'memory.sqlite', gatewayDir: undefined, evolveDir: join(cwd, 'evolve'), cwd });
    server = await startViewServer({ app, runs, host: '127.0.0.1', port: 0, token: TOKEN });
  });

  afterAll(async () => {
    delete process.env['ISOBUDGET_VIEW_TEST_SECRET'];
    await server?.close();
    store?.close();
  });

  const decision = JSON.stringify({ decision: 'approve', reviewer: 'mallory', note: null });

  test('a decision needs the page token, JSON and our own origin; nothing is recorded otherwise', async () => {
    const json = { 'content-type': 'application/json' };
    const attempts = [
      { headers: json },
      { headers: { ...json, 'x-isobudget-token': 'wrong-token-0123456789abcdef' } },
      { headers: { ...json, 'x-isobudget-token': TOKEN, origin: 'https://evil.example' } },
      { headers: { 'content-type': 'text/plain', 'x-isobudget-token': TOKEN } },
      { headers: { ...json, 'x-isobudget-token': TOKEN, host: 'evil.example:80' } },
    ];
    const statuses = [];
    for (const attempt of attempts) statuses.push((await call(server.url, { method: 'POST', path: '/api/review/rev-0001', headers: attempt.headers, body: decision })).status);
    expect(statuses).toEqual([403, 403, 403, 415, 421]);
    expect(await store.listDecisions()).toEqual([]);
    const bad = await call(server.url, { method: 'POST', path: '/api/review/rev-0001', headers: { 'content-type': 'application/json', 'x-isobudget-token': TOKEN }, body: '{"decision":"approve","reviewer":""}' });
    expect(bad.status).toBe(400);
    const ok = await call(server.url, { method: 'POST', path: '/api/review/rev-0001', headers: { 'content-type': 'application/json', 'x-isobudget-token': TOKEN, origin: server.url }, body: decision });
    expect(ok.status, ok.body).toBe(200);
    expect(JSON.parse(ok.body).message).toContain('approved by mallory');
    const again = await call(server.url, { method: 'POST', path: '/api/review/rev-0001', headers: { 'content-type': 'application/json', 'x-isobudget-token': TOKEN }, body: decision });
    expect(again.status).toBe(409);
    expect((await store.listDecisions()).map((d) => d.reviewer)).toEqual(['mallory']);
  });

  test('every other write is refused, a rebound Host is refused, and pages carry a strict CSP', async () => {
    expect((await call(server.url, { method: 'DELETE', path: '/runs/bf-synthetic' })).status).toBe(405);
    expect((await call(server.url, { method: 'POST', path: '/runs/bf-synthetic' })).status).toBe(405);
    expect((await call(server.url, { path: '/', headers: { host: 'rebind.example:4173' } })).status).toBe(421);
    const page = await call(server.url, { path: '/' });
    expect(page.status).toBe(200);
    expect(String(page.headers['content-security-policy'])).toContain("default-src 'none'");
    expect(String(page.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  test('broken and torn runs are shown as such; the server keeps answering; no path leaves the runs folder', async () => {
    const runs = await call(server.url, { path: '/' });
    expect(runs.body).toContain('empty: the run stopped before its manifest was written');
    const torn = await call(server.url, { path: '/runs/torn' });
    expect([200, 500]).toContain(torn.status);
    expect((await call(server.url, { path: '/runs/empty' })).body).toContain('broken');
    expect((await call(server.url, { path: '/runs/..%2F..%2Fetc' })).status).toBe(404);
    expect((await call(server.url, { path: '/runs/%E0%A4%A' })).status).toBe(400);
    expect((await call(server.url, { path: '/runs/bf-synthetic' })).status).toBe(200);
  });

  test('no secret from the environment reaches any page', async () => {
    const paths = ['/', '/runs/bf-synthetic', '/runs/bf-synthetic/cases/case-00001?split=val', '/review', '/memory', '/spend', '/evolve', '/compare?a=bf-synthetic&b=bf-synthetic'];
    for (const path of paths) {
      const page = await call(server.url, { path });
      expect(page.status, path).toBe(200);
      expect(page.body, path).not.toContain('sk-live-THIS-MUST-NEVER-SHOW');
    }
  });

  test('the results download is analyze --csv\'s CSV, as an attachment', async () => {
    const csv = await call(server.url, { path: '/runs/bf-synthetic/results.csv' });
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-disposition'])).toBe('attachment; filename="bf-synthetic-results.csv"');
    const lines = csv.body.trim().split(/\r?\n/);
    expect(lines.length).toBe(1 + 30 * 4);
    expect((await call(server.url, { path: '/runs/nope/results.csv' })).status).toBe(404);
  });

  test('the grid fragment pages and filters on the server', async () => {
    const first = await call(server.url, { path: '/runs/bf-synthetic?fragment=grid' });
    expect(first.body.startsWith('<div id="grid">')).toBe(true);
    expect(first.body).toContain('30 of 30 cases');
    const filtered = await call(server.url, { path: '/runs/bf-synthetic?fragment=grid&filter=regressions' });
    const matching = Number(/(\d+) of 30 cases/.exec(filtered.body)?.[1]);
    expect(matching).toBeLessThan(30);
    expect((filtered.body.match(/▼ lost/g) ?? []).length).toBe(matching);
  });
});

describe('run files nobody should have written', () => {
  test('a FIFO named calls.jsonl does not hang the viewer: the run is shown as broken', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'isobudget-view-fifo-'));
    writeSyntheticRun({ dir: join(cwd, 'runs', 'r'), cases: 5, rounds: 20 });
    const { execFileSync } = await import('node:child_process');
    const { rmSync } = await import('node:fs');
    rmSync(join(cwd, 'runs', 'r', 'calls.jsonl'), { force: true });
    execFileSync('mkfifo', [join(cwd, 'runs', 'r', 'calls.jsonl')]);
    writeFileSync(join(cwd, 'runs', 'r', 'report.html'), '');
    const runs = new RunSource(join(cwd, 'runs'), cwd);
    const app = new ViewApp({ runs, store: undefined, storeLabel: 'none', gatewayDir: undefined, evolveDir: join(cwd, 'evolve'), cwd });
    const server = await startViewServer({ app, runs, host: '127.0.0.1', port: 0, token: undefined });
    try {
      expect((await call(server.url, { path: '/runs/r' })).body).toContain('calls.jsonl is not a regular file');
      expect((await call(server.url, { path: '/runs/r/cases/case-00001?split=val' })).status).toBe(404);
      const list = await call(server.url, { path: '/' });
      expect(list.status).toBe(200);
      expect(list.body).toContain('broken: calls.jsonl is not a regular file');
    } finally {
      await server.close();
    }
  }, 20_000);
});

describe('runs imported from other tools', () => {
  test('a promptfoo import (B unknown, n=1 only) opens on every run screen, and Compare says B is unknown', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'isobudget-view-import-'));
    const { execFileSync } = await import('node:child_process');
    const bin = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'bin.js');
    const fixture = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'promptfoo', 'date-parser-results.json');
    execFileSync(process.execPath, [bin, 'import', 'promptfoo', fixture, '--out', join(cwd, 'runs', 'pf-1')], { cwd, stdio: 'pipe' });
    writeSyntheticRun({ dir: join(cwd, 'runs', 'bf-synthetic'), cases: 5, rounds: 20 });
    const runs = new RunSource(join(cwd, 'runs'), cwd);
    const app = new ViewApp({ runs, store: undefined, storeLabel: 'none', gatewayDir: undefined, evolveDir: join(cwd, 'evolve'), cwd });
    const server = await startViewServer({ app, runs, host: '127.0.0.1', port: 0, token: undefined });
    try {
      const run = await call(server.url, { path: '/runs/pf-1' });
      expect(run.status, run.body.slice(0, 400)).toBe(200);
      expect(run.body).toContain('B unknown');
      const caseId = /\/runs\/pf-1\/cases\/([^"?]+)\?split=/.exec(run.body)?.[1];
      expect(caseId).toBeDefined();
      expect((await call(server.url, { path: `/runs/pf-1/cases/${caseId}?split=val` })).status).toBe(200);
      const compare = await call(server.url, { path: '/compare?a=bf-synthetic&b=pf-1' });
      expect(compare.status).toBe(200);
      expect(compare.body).toContain('B is unknown for run B (an imported run)');
      expect((await call(server.url, { path: '/runs/pf-1/results.csv' })).status).toBe(200);
    } finally {
      await server.close();
    }
  }, 30_000);
});
