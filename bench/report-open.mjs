#!/usr/bin/env node
/**
 * The HTML report of a 5,000-case run: how big it is, how long it takes to write, and how
 * long Chromium takes to open it from disk (issue 7: "opens in under 2 s and stays under
 * 15 MB"). A benchmark, not a test: opening time depends on the machine and its load.
 *
 *   node bench/report-open.mjs [--cases 5000] [--opens 5] [--chromium /usr/bin/chromium] [--keep]
 *
 * Needs a built dist/ (`npm run build`) and Debian chromium (`apt-get install chromium`).
 *
 * The run: a synthetic run directory (src/report/html/synthetic-run.ts) of --cases cases ×
 * four arms (n=1 and n=8, so 18 outputs per case), outputs of 10–80 words, 0.5% of them
 * ~3,000 words long (cut by the report), ten categories. The report is rendered from memory
 * (renderReport) and written to disk, then opened --opens times, each in a fresh browser
 * context (no cache), from file:// with every other request blocked.
 *
 * Measured per open, from the browser's own clocks (relative to the start of navigation):
 * first contentful paint (verdict and charts visible), DOMContentLoaded, the load event, and
 * "interactive" — the `cases-ready` performance mark the case browser sets once it has parsed
 * the embedded data and rendered its first page. Also the Node wall time of page.goto(load).
 * Then one interaction: typing a search over all cases until the table shows the result.
 * Writes bench/out/report-open.json; `pass`: interactive ≤ 2,000 ms (median) and size ≤ 15 MB.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '5000' },
    opens: { type: 'string', default: '5' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
    keep: { type: 'boolean', default: false },
  },
});
const cases = Number(values.cases);
const opens = Number(values.opens);
const dist = (p) => pathToFileURL(join(root, 'dist', p)).href;
const { writeSyntheticRun } = await import(dist('report/html/synthetic-run.js'));
const { renderReport } = await import(dist('report/html/render-report.js'));
const { chromium } = await import('playwright-core');

const dir = mkdtempSync(join(tmpdir(), 'isobudget-report-bench-'));
let t = performance.now();
const run = writeSyntheticRun({ dir, cases, rounds: 500 });
const generateMs = performance.now() - t;
t = performance.now();
const { html, warnings } = await renderReport({ verdict: run.verdict, manifest: run.manifest, results: run.results, texts: run.texts, notes: [], generatedAt: new Date() });
const renderMs = performance.now() - t;
const file = join(dir, 'report.html');
writeFileSync(file, html);
const bytes = statSync(file).size;

const browser = await chromium.launch({
  executablePath: values.chromium,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const samples = [];
try {
  for (let i = 0; i < opens; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const started = performance.now();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    const gotoMs = performance.now() - started;
    await page.waitForSelector('html[data-cases-ready]');
    const timing = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const paint = performance.getEntriesByType('paint').find((p) => p.name === 'first-contentful-paint');
      const ready = performance.getEntriesByName('cases-ready')[0];
      return { domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd, fcp: paint?.startTime ?? null, interactive: ready?.startTime ?? null, rows: document.querySelectorAll('#cb-body tr').length, marks: document.querySelectorAll('svg .role-mark').length };
    });
    const searchStart = performance.now();
    await page.fill('#cb-search', 'case-04999');
    await page.waitForFunction(() => document.getElementById('cb-count')?.textContent?.startsWith('1 of'));
    const searchMs = performance.now() - searchStart;
    samples.push({ gotoMs: Math.round(gotoMs), ...round(timing), searchMs: Math.round(searchMs), errors });
    await context.close();
  }
} finally {
  await browser.close();
}

const median = (key) => {
  const sorted = samples.map((s) => s[key]).filter((v) => typeof v === 'number').sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const report = {
  when: new Date().toISOString(),
  cpus: cpus().length,
  load: loadavg()[0],
  cases,
  results: run.results.length,
  bytes,
  megabytes: +(bytes / 1e6).toFixed(2),
  generateMs: Math.round(generateMs),
  renderMs: Math.round(renderMs),
  chartWarnings: warnings,
  opens: samples,
  median: { gotoMs: median('gotoMs'), domContentLoaded: median('domContentLoaded'), fcp: median('fcp'), load: median('load'), interactive: median('interactive'), searchMs: median('searchMs') },
};
report.pass = report.median.interactive <= 2000 && bytes <= 15e6 && samples.every((s) => s.errors.length === 0 && s.rows > 0 && s.marks > 0);
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(join(here, 'out', 'report-open.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(
  `report of ${cases.toLocaleString('en-US')} cases (${run.results.length.toLocaleString('en-US')} results): ${report.megabytes} MB, rendered in ${report.renderMs} ms (run generated in ${report.generateMs} ms)\n` +
    `open from disk, median of ${opens} (load average ${report.load.toFixed(1)} on ${report.cpus} CPUs): first contentful paint ${report.median.fcp} ms, DOMContentLoaded ${report.median.domContentLoaded} ms, load ${report.median.load} ms, interactive (${cases.toLocaleString('en-US')} cases parsed, first page rendered) ${report.median.interactive} ms; page.goto ${report.median.gotoMs} ms; a search over all cases ${report.median.searchMs} ms\n` +
    `per open: ${samples.map((s) => `${s.fcp}/${s.load}/${s.interactive} ms`).join(', ')} (first paint/load/interactive)\n` +
    `target ≤ 2,000 ms and ≤ 15 MB: ${report.pass ? 'met' : 'MISSED'} (bench/out/report-open.json)\n`,
);
if (!values.keep) rmSync(dir, { recursive: true, force: true });
else process.stdout.write(`kept ${dir}\n`);

function round(timing) {
  return Object.fromEntries(Object.entries(timing).map(([k, v]) => [k, typeof v === 'number' ? Math.round(v) : v]));
}
