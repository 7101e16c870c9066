/**
 * `isobudget view` in a real browser (Debian chromium through playwright-core), on real runs
 * of the shipped examples (date-parser twice, the tool-loop agent), a real memory store with
 * queued candidates, a gateway data dir and a run whose ids, inputs and categories carry XSS
 * payloads. Every screen is clicked through; approving and rejecting in the page is checked
 * in the store and with `review --list`; the static bundle is opened from file://. No request
 * may leave for another origin.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SqliteMemoryStore } from '../src/memory/store/sqlite-store.js';
import { runCli } from './support/cli.js';
import { startView } from './support/view-process.js';

const CHROMIUM = '/usr/bin/chromium';
const EXAMPLES = join(import.meta.dirname, '..', 'examples');
const PAYLOAD = `<script>window.__pwned='script'</script><img src=x onerror="window.__pwned='img'">`;

interface Opened {
  page: Page;
  errors: string[];
  foreign: string[];
  requests: string[];
}

function writeHostileExperiment(dir: string): string {
  mkdirSync(join(dir, 'hostile'), { recursive: true });
  const ids = [`x-${PAYLOAD}`, '__proto__', 'c1', 'c2', 'c3', 'c4'];
  const rows = ids.map((id, i) => JSON.stringify({ id, input: `What is ${i + 1} + ${i + 2}? ${PAYLOAD}`, expected: String(2 * i + 3), category: i % 2 ? `cat-${PAYLOAD}` : 'plain' }));
  writeFileSync(join(dir, 'hostile', 'val.jsonl'), `${rows.join('\n')}\n`);
  const yaml = [
    'experiment: hostile-view',
    'provider: { preset: sim }',
    'variants:',
    '  baseline: { id: arith-v1, model: sim-small, system_prompt: "Answer arithmetic questions." }',
    '  candidate: { id: arith-v2, model: sim-small, system_prompt: "Answer arithmetic questions. Show the sum." }',
    'budget: { total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1, 4] }',
    'datasets: { val: val.jsonl }',
    'scorer: numeric',
    'seed: 5',
  ].join('\n');
  writeFileSync(join(dir, 'hostile', 'experiment.yaml'), `${yaml}\n`);
  return join(dir, 'hostile', 'experiment.yaml');
}

describe.skipIf(!existsSync(CHROMIUM))('isobudget view in a browser', () => {
  let browser: Browser;
  let cwd: string;
  let store: string;
  let view: { child: ChildProcess; url: string };
  let keySecret: string;
  const runIds = { first: 'dp-a', second: 'dp-b', agent: 'agent-1', hostile: 'hostile-1' };

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'isobudget-view-'));
    const runs = join(cwd, 'runs');
    const common = ['--out', runs, '--quiet', '--no-report', '--sim-latency-scale', '0'];
    const results = await Promise.all([
      runCli(['run', join(EXAMPLES, 'date-parser', 'experiment.yaml'), ...common, '--run-id', runIds.first]),
      runCli(['run', join(EXAMPLES, 'tool-loop', 'experiment.yaml'), ...common, '--run-id', runIds.agent]),
      runCli(['run', writeHostileExperiment(cwd), ...common, '--run-id', runIds.hostile]),
    ]);
    for (const r of results) expect([0, 10, 11, 12, 13], r.stderr).toContain(r.code);
    const second = await runCli(['run', join(EXAMPLES, 'date-parser', 'experiment.yaml'), ...common, '--run-id', runIds.second]);
    expect([0, 10, 11, 12, 13], second.stderr).toContain(second.code);
    // A broken run: a manifest cut mid-write.
    mkdirSync(join(runs, 'broken-1'));
    writeFileSync(join(runs, 'broken-1', 'manifest.json'), '{"run_id": "broken-1", "creat');
    store = join(cwd, '.isobudget', 'memory.sqlite');
    const ingest = await runCli(['memory', 'ingest', join(runs, runIds.first), join(runs, runIds.agent), join(runs, runIds.hostile)], { cwd });
    expect(ingest.code, ingest.stderr).toBe(0);
    // Two cards waiting, as the gate queues them after layers 1–4.
    const memory = new SqliteMemoryStore(store);
    const records = (await memory.listRecords()).sort((x, y) => Number(y.type === 'skill_candidate') - Number(x.type === 'skill_candidate'));
    expect(records[0]?.type).toBe('skill_candidate');
    expect(records.length).toBeGreaterThanOrEqual(2);
    const at = new Date().toISOString();
    await memory.commit({
      reviewItems: records.slice(0, 2).map((record, i) => ({
        expected: null,
        item: {
          review_id: `rev-000${i + 1}`, kind: 'promotion' as const, status: 'pending' as const, memory_id: record.memory_id, memory_version: record.version, gate_id: null,
          reasons: ['promotion to skill: human confirmation (layer 5)'],
          card: { title: `promote ${record.candidate_id} ${PAYLOAD}`, diff: `--- v2\n+++ v3\n@@ -1 +1,2 @@\n rules\n+two-digit years ${PAYLOAD}\n`, same_budget: { delta: 0.22, ci95: [0.17, 0.28] as const, cases: 200, split: 'test' }, tokens_per_success: { baseline: 1120, candidate: 980, growth: 0.875 }, p95_latency_ratio: 1.04, bestofn: { n: 8, delta: 0.13, total_tokens_ratio: 1.02 }, attribution: [], policy_changes: [], facts: [] },
          created_at: at, updated_at: at,
        },
      })),
    });
    memory.close();
    const key = await runCli(['gateway', 'keys', 'create', '--data-dir', join(cwd, 'gw'), '--budget', '5000', '--tag', 'run=bf-001,arm=candidate_single'], { cwd });
    expect(key.code, key.stderr).toBe(0);
    keySecret = key.stdout.trim().split('\n').pop() ?? '';
    expect(keySecret).toMatch(/^ibk-/);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
    view = await startView(cwd, ['--gateway', join(cwd, 'gw')]);
  }, 120_000);

  afterAll(async () => {
    view?.child.kill('SIGTERM');
    await browser?.close();
  });

  async function open(url: string): Promise<Opened> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const opened: Opened = { page, errors: [], foreign: [], requests: [] };
    page.on('console', (m) => m.type() === 'error' && opened.errors.push(m.text()));
    page.on('pageerror', (e) => opened.errors.push(String(e)));
    page.on('dialog', (d) => {
      opened.errors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    await context.route('**/*', (route) => {
      const target = route.request().url();
      const local = target.startsWith(view.url) || target.startsWith('file:');
      if (!local) {
        opened.foreign.push(target);
        return route.abort();
      }
      opened.requests.push(target);
      return route.continue();
    });
    await page.goto(url, { waitUntil: 'load' });
    return opened;
  }

  function clean(opened: Opened): void {
    expect(opened.errors).toEqual([]);
    expect(opened.foreign).toEqual([]);
  }

  test('Runs → Run: verdict banner, case grid, a filter change is one request and a URL that reloads', async () => {
    const opened = await open(view.url);
    const { page } = opened;
    expect(await page.locator('table[data-live-runs] tbody tr').count()).toBe(5);
    expect(await page.textContent('body')).toContain('broken: manifest.json does not parse');
    await page.click(`a[href="/runs/${runIds.first}"]`);
    await page.waitForSelector('.verdict-name');
    expect(await page.locator('#grid tbody tr').count()).toBe(50);
    expect(await page.textContent('#grid .pager')).toContain('of 200 cases');
    opened.requests.length = 0;
    await page.selectOption('select[name="filter"]', 'won');
    await page.waitForFunction(() => location.search.includes('filter=won'));
    await page.waitForFunction(() => !document.querySelector('#grid[aria-busy]'));
    expect(opened.requests.filter((r) => r.includes('fragment=grid'))).toHaveLength(1);
    expect(opened.requests).toHaveLength(1);
    const won = await page.locator('#grid tbody tr').count();
    expect(won).toBeGreaterThan(0);
    expect(won).toBeLessThan(50);
    for (const text of await page.locator('#grid tbody tr td:nth-child(3)').allTextContents()) expect(text).toContain('won');
    await page.reload();
    expect(await page.inputValue('select[name="filter"]')).toBe('won');
    expect(await page.locator('#grid tbody tr').count()).toBe(won);
    await page.fill('input[name="q"]', 'date-val-0001');
    await page.press('input[name="q"]', 'Enter');
    await page.waitForFunction(() => location.search.includes('q=date-val-0001'));
    await page.waitForFunction(() => !document.querySelector('#grid[aria-busy]'));
    expect(await page.locator('#grid tbody tr').count()).toBeLessThanOrEqual(1);
    clean(opened);
    await page.screenshot({ path: join(cwd, 'run.png'), fullPage: false });
  });

  test('a case opens its detail; an agent run shows its tool-call trajectory and every call', async () => {
    const opened = await open(`${view.url}/runs/${runIds.first}`);
    const { page } = opened;
    await page.click('#grid tbody tr:first-child td:first-child a');
    await page.waitForSelector('h1');
    expect(await page.textContent('main')).toContain('Input');
    expect(await page.locator('.path').count()).toBeGreaterThanOrEqual(4);
    expect(await page.locator('section:has(h2:text("Calls")) tbody tr').count()).toBeGreaterThan(0);
    const agent = await open(`${view.url}/runs/${runIds.agent}`);
    await agent.page.click('#grid tbody tr:first-child td:first-child a');
    await agent.page.waitForSelector('.path');
    expect(await agent.page.textContent('main')).toContain('tool calls (');
    clean(opened);
    clean(agent);
  });

  test('Compare: two runs of the same cases, flips per arm, the paired CI and McNemar', async () => {
    const opened = await open(`${view.url}/compare`);
    const { page } = opened;
    await page.selectOption('select[name="a"]', runIds.first);
    await page.selectOption('select[name="b"]', runIds.second);
    await page.click('form.toolbar button');
    await page.waitForSelector('table.grid tbody tr');
    const text = (await page.textContent('main')) ?? '';
    expect(text).toContain('McNemar p');
    expect(text).toContain('Same budget, datasets (by hash), scorer and models.');
    expect(await page.locator('table.grid tbody tr').count()).toBe(4);
    const other = await open(`${view.url}/compare?a=${runIds.first}&b=${runIds.agent}`);
    expect(await other.page.textContent('.warnings')).toContain('budgets differ');
    clean(opened);
  });

  test('Review: approve with the keyboard, reject with a click; the store and review --list agree', async () => {
    const opened = await open(`${view.url}/review`);
    const { page } = opened;
    expect(await page.locator('.card[data-review]').count()).toBe(2);
    await page.fill('#reviewer', 'ana');
    await page.locator('.card[data-review="rev-0001"]').focus();
    await page.keyboard.press('a');
    await page.waitForFunction(() => /approved|not recorded|enter a reviewer|read-only/.test(document.querySelector('.card[data-review="rev-0001"] .outcome')?.textContent ?? ''));
    expect(await page.textContent('.card[data-review="rev-0001"] .outcome')).toContain('approved by ana');
    await page.waitForFunction(() => document.querySelector('.card[data-review="rev-0001"]')?.getAttribute('data-decided') === 'approve');
    await page.locator('.card[data-review="rev-0002"] textarea').fill('only cheaper');
    await page.click('.card[data-review="rev-0002"] button.reject');
    await page.waitForFunction(() => document.querySelector('.card[data-review="rev-0002"]')?.getAttribute('data-decided') === 'reject');
    expect(await page.textContent('.card[data-review="rev-0002"] .outcome')).toContain('rejected by ana: only cheaper');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    const listed = await runCli(['review', '--list', '--all', '--json', '--store', store], { cwd });
    const items = JSON.parse(listed.stdout) as Array<{ review_id: string; status: string }>;
    expect(items.map((i) => [i.review_id, i.status])).toEqual([['rev-0001', 'approved'], ['rev-0002', 'rejected']]);
    const memory = new SqliteMemoryStore(store);
    const decisions = await memory.listDecisions();
    expect(decisions.map((d) => [d.review_id, d.decision, d.reviewer, d.note])).toEqual([['rev-0001', 'approve', 'ana', null], ['rev-0002', 'reject', 'ana', 'only cheaper']]);
    memory.close();
    await page.reload();
    expect(await page.locator('.card[data-review]').count()).toBe(0);
    expect(await page.textContent('main')).toContain('Decided');
    clean(opened);
  });

  test('Memory, Evolve and Spend: records with provenance and versions; keys without secrets', async () => {
    const opened = await open(`${view.url}/memory`);
    const { page } = opened;
    const first = page.locator('table.grid tbody tr td:first-child a').first();
    await first.click();
    await page.waitForSelector('h2:text("Versions")');
    expect(await page.textContent('main')).toContain('B = ');
    const evolve = await open(`${view.url}/evolve`);
    expect(await evolve.page.textContent('main')).toContain('No loops yet');
    const spend = await open(`${view.url}/spend`);
    const html = await spend.page.content();
    expect(html).toContain('5,000');
    expect(html).toContain('run=bf-001');
    expect(html).not.toContain(keySecret);
    // The secret part (after `ibk-` and the 12-hex id): base64url, so it may itself hold a '-'.
    const secretPart = keySecret.slice('ibk-'.length + 12 + 1);
    expect(secretPart.length).toBeGreaterThanOrEqual(20);
    expect(html).not.toContain(secretPart);
    clean(opened);
    clean(evolve);
    clean(spend);
  });

  test('hostile ids, inputs, categories and review cards are text on every screen; a broken run is shown as broken', async () => {
    const pages = [`/runs/${runIds.hostile}`, '/', `/compare?a=${runIds.hostile}&b=${runIds.hostile}`, '/memory', '/review', '/runs/broken-1'];
    for (const path of pages) {
      const opened = await open(`${view.url}${path}`);
      expect(await opened.page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned), path).toBeUndefined();
      expect(await opened.page.locator('main script, main img[src="x"]').count(), path).toBe(0);
      clean(opened);
    }
    const run = await open(`${view.url}/runs/${runIds.hostile}`);
    expect(await run.page.textContent('#grid')).toContain('<script>');
    await run.page.click('#grid tbody tr:first-child td:first-child a');
    await run.page.waitForSelector('.path');
    expect(await run.page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await run.page.textContent('main')).toContain(PAYLOAD.slice(0, 20));
    const broken = await open(`${view.url}/runs/broken-1`);
    expect(await broken.page.textContent('main')).toContain('broken');
    clean(run);
  });

  test('the static bundle opens from file://, filters in the page and makes no request', async () => {
    const out = join(cwd, 'bundle');
    const written = await runCli(['view', '--bundle', out, '--gateway', join(cwd, 'gw')], { cwd, env: { HOME: cwd } });
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toContain('wrote the viewer to');
    const opened = await open(pathToFileURL(join(out, 'index.html')).href);
    const { page } = opened;
    expect(await page.textContent('nav')).toContain('static bundle');
    expect(await page.locator('nav a', { hasText: 'Compare' }).count()).toBe(0);
    await page.click(`a[href="run-${runIds.first}.html"]`);
    await page.waitForSelector('#grid tbody tr');
    expect(await page.locator('#grid tbody tr').count()).toBe(200);
    await page.selectOption('select[name="filter"]', 'won');
    const shown = await page.locator('#grid tbody tr:not([hidden])').count();
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(200);
    expect(await page.textContent('#grid-count')).toBe(`${shown} of 200 cases`);
    await page.click('#grid tbody tr:not([hidden]) td:first-child a');
    await page.waitForSelector('.path');
    await page.goto(pathToFileURL(join(out, 'review.html')).href);
    expect(await page.locator('.card button').count()).toBe(0);
    expect(opened.requests.every((r) => r.startsWith('file:'))).toBe(true);
    expect(readFileSync(join(out, 'spend.html'), 'utf8')).not.toContain(keySecret);
    clean(opened);
  });
});
