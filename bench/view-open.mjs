#!/usr/bin/env node
/**
 * `isobudget view` on a big run (issue "isobudget view", must show): two synthetic runs of
 * --cases cases × four arms (n=1 and n=8) and a memory store of --records learnings, served
 * by the real CLI (`dist/cli/bin.js view`) and opened in Debian chromium, each screen in a
 * fresh context (no cache). A benchmark, not a test: times depend on the machine's load.
 *
 *   node bench/view-open.mjs [--cases 4000] [--records 1000] [--chromium /usr/bin/chromium] [--keep]
 *
 * Measured from the browser's clocks: first contentful paint of Runs and Run (cold: the
 * server's first read of the run, and warm: a second open), a filter change and a page change
 * (click → grid replaced) with the requests each made, Compare of the two runs (navigation →
 * load, cold), Memory with --records records, and the page's JavaScript, raw and gzipped
 * (every page carries the same one inline script; no other script exists).
 * Targets: paint ≤ 1,000 ms, filter/page ≤ 200 ms, compare ≤ 1,000 ms, ≤ 1 request per view
 * change, compressed JS ≤ 300 KB. Writes bench/out/view-open.json.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const { values } = parseArgs({ options: { cases: { type: 'string', default: '4000' }, records: { type: 'string', default: '1000' }, chromium: { type: 'string', default: '/usr/bin/chromium' }, keep: { type: 'boolean', default: false } } });
const cases = Number(values.cases);
const recordCount = Number(values.records);
const bin = join(root, 'dist', 'cli', 'bin.js');

const { writeSyntheticRun } = await import(join(root, 'dist', 'report', 'html', 'synthetic-run.js'));
const { VIEW_SCRIPT } = await import(join(root, 'dist', 'view', 'view-script.js'));
const { chromium } = await import('playwright-core');

const cwd = mkdtempSync(join(tmpdir(), 'isobudget-view-bench-'));
const t0 = performance.now();
writeSyntheticRun({ dir: join(cwd, 'runs', 'bf-a'), cases, seed: 5, rounds: 200 });
writeSyntheticRun({ dir: join(cwd, 'runs', 'bf-b'), cases, seed: 6, rounds: 200 });
const notes = join(cwd, 'notes', '.learnings');
mkdirSync(notes, { recursive: true });
for (let i = 0; i < recordCount; i++) writeFileSync(join(notes, `note-${i}.md`), `---\nrun_id: bf-a\nmodel: sim-small\nbudget: 3000\nn: ${i % 3 === 0 ? 8 : 1}\nverdict: ${i % 4 === 0 ? 'budget_leakage' : 'no_gain'}\npattern: pattern ${i}\n---\n# Note ${i}\n\nRetries hid a timeout in case ${i}.\n`);
const imported = spawnSync(process.execPath, [bin, 'memory', 'import-learnings', join(cwd, 'notes'), '--base-url', 'sim://local'], { cwd, encoding: 'utf8' });
if (imported.status !== 0) throw new Error(imported.stderr);
const setupMs = performance.now() - t0;

const view = spawn(process.execPath, [bin, 'view', '--port', '0'], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  let out = '';
  view.stdout.on('data', (chunk) => {
    out += chunk;
    const found = /isobudget view on (http:\/\/\S+)/.exec(out)?.[1];
    if (found) resolve(found);
  });
  view.on('exit', (code) => reject(new Error(`view exited ${code}`)));
});

const browser = await chromium.launch({ executablePath: values.chromium, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
async function fresh() {
  const context = await browser.newContext();
  const page = await context.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  return { page, requests, close: () => context.close() };
}
async function paint(path) {
  const { page, close } = await fresh();
  const started = performance.now();
  await page.goto(`${url}${path}`, { waitUntil: 'load' });
  const fcp = await page.evaluate(() => new Promise((resolve) => {
    const found = performance.getEntriesByName('first-contentful-paint')[0];
    if (found) return resolve(found.startTime);
    new PerformanceObserver((list) => resolve(list.getEntries()[0]?.startTime ?? null)).observe({ type: 'paint', buffered: true });
    setTimeout(() => resolve(null), 2000);
  }));
  const load = performance.now() - started;
  await close();
  return { fcp_ms: fcp === null ? null : Math.round(fcp), load_ms: Math.round(load) };
}

// The server reads the runs and draws their charts once it listens; a user opens the page a
// few seconds later. run_first is measured after that warm-up, as a user meets it.
const results = {};
const warmStarted = performance.now();
await new Promise((resolve) => setTimeout(resolve, 1000));
results.runs_cold = await paint('/');
results.runs_warm = await paint('/');
results.run_first = await paint('/runs/bf-a');
results.warm_wait_ms = Math.round(performance.now() - warmStarted);
results.run_warm = await paint('/runs/bf-a');
{
  const { page, requests, close } = await fresh();
  await page.goto(`${url}/runs/bf-a`, { waitUntil: 'load' });
  const changes = [];
  for (const filter of ['regressions', 'won', 'length', 'all']) {
    requests.length = 0;
    const before = await page.$('#grid');
    const started = performance.now();
    await page.selectOption('select[name="filter"]', filter);
    await page.waitForFunction((old) => document.getElementById('grid') !== old, before);
    changes.push({ filter, ms: Math.round(performance.now() - started), requests: requests.length });
  }
  const pages = [];
  for (let i = 0; i < 3; i++) {
    requests.length = 0;
    const before = await page.$('#grid');
    const started = performance.now();
    await page.click('a[data-page]:last-child');
    await page.waitForFunction((old) => document.getElementById('grid') !== old, before);
    pages.push({ ms: Math.round(performance.now() - started), requests: requests.length });
  }
  results.filter_changes = changes;
  results.page_changes = pages;
  await close();
}
results.compare_cold = await paint('/compare?a=bf-a&b=bf-b');
results.compare_warm = await paint('/compare?a=bf-a&b=bf-b');
results.memory = await paint('/memory');
results.case_detail = await paint('/runs/bf-a/cases/case-02000?split=val');
results.js = { raw_bytes: Buffer.byteLength(VIEW_SCRIPT), gzip_bytes: gzipSync(VIEW_SCRIPT).length };
await browser.close();
view.kill('SIGTERM');

const max = (list) => Math.max(...list.map((x) => x.ms));
const summary = {
  when: new Date().toISOString(), cpus: cpus().length, load: loadavg().map((x) => Number(x.toFixed(2))), cases, records: recordCount, setup_ms: Math.round(setupMs), results,
  pass: {
    paint: [results.runs_cold, results.run_first, results.run_warm].every((r) => (r.fcp_ms ?? Infinity) <= 1000),
    filter_and_page: max([...results.filter_changes, ...results.page_changes]) <= 200,
    one_request_per_change: [...results.filter_changes, ...results.page_changes].every((c) => c.requests <= 1),
    compare: results.compare_cold.load_ms <= 1000,
    js: results.js.gzip_bytes <= 300 * 1024,
  },
};
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(join(here, 'out', 'view-open.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary, null, 2));
if (!values.keep) rmSync(cwd, { recursive: true, force: true });
