/**
 * The HTML report in a real browser (Debian chromium through playwright-core), opened from
 * disk with every non-file request blocked (issue 7, "must show"): no console error, charts
 * drawn with data marks, a screenshot kept under test-artifacts/, and model output carrying
 * `<script>` and `<img onerror>` shown as text, never run.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ResultRecord } from '../src/ledger/records.js';
import { writeRunReport } from '../src/report/html/write-run-report.js';
import { runExperiment } from '../src/runner/run-experiment.js';
import { verdictForRun } from '../src/verdict/verdict-for-run.js';
import { runCli } from './support/cli.js';
import { acceptLedgerEdits } from './support/accept-ledger-edits.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(import.meta.dirname, '..', 'test-artifacts');
const PAYLOAD = `<script>window.__pwned = 'script'; alert('script')</script><img src=x onerror="window.__pwned = 'img'; alert('img')">`;

interface Opened {
  page: Page;
  consoleErrors: string[];
  blocked: string[];
  dialogs: string[];
}

// CI installs chromium (.ci/run); without it the browser tests cannot run at all.
describe.skipIf(!existsSync(CHROMIUM))('report in a browser', () => {
  let browser: Browser;
  let runDir: string;

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
    const out = mkdtempSync(join(tmpdir(), 'isobudget-report-browser-'));
    const run = await runExperiment({ configPath: join(import.meta.dirname, '..', 'examples', 'date-parser', 'experiment.yaml'), outDir: out, env: {} });
    runDir = run.runDir;
    await writeRunReport(runDir, { verdict: verdictForRun(runDir) });
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function open(file: string): Promise<Opened> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const opened: Opened = { page: await context.newPage(), consoleErrors: [], blocked: [], dialogs: [] };
    await context.route('**/*', (route) => {
      if (route.request().url().startsWith('file:')) return route.continue();
      opened.blocked.push(route.request().url());
      return route.abort();
    });
    opened.page.on('console', (m) => m.type() === 'error' && opened.consoleErrors.push(m.text()));
    opened.page.on('pageerror', (e) => opened.consoleErrors.push(String(e)));
    opened.page.on('dialog', (d) => {
      opened.dialogs.push(d.message());
      void d.dismiss();
    });
    await opened.page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    await opened.page.waitForSelector('html[data-cases-ready]');
    return opened;
  }

  test('date-parser: opens offline, no console error, charts with data marks, a screenshot', async () => {
    const { page, consoleErrors, blocked } = await open(join(runDir, 'report.html'));
    expect(consoleErrors).toEqual([]);
    expect(blocked).toEqual([]);
    expect(await page.locator('.verdict-name').textContent()).toBe('real evolution');
    const charts = await page.$$eval('figure.chart', (figures) =>
      figures.map((f) => ({
        svg: f.querySelectorAll('svg').length,
        symbols: f.querySelectorAll('svg .mark-symbol.role-mark path').length,
        rules: f.querySelectorAll('svg .mark-rule.role-mark line').length,
        bars: f.querySelectorAll('svg .mark-rect.role-mark path').length,
        width: f.querySelector('svg')?.getBoundingClientRect().width ?? 0,
      })),
    );
    expect(charts).toHaveLength(3);
    for (const c of charts) expect(c.svg === 1 && c.width > 200).toBe(true);
    const [iso, forest, tokens] = charts;
    // Four arms: A, B at n=1 (pass@1), C, D at n=8 (selected@8 and the pass@8 oracle) → 6 points.
    expect(iso?.symbols).toBe(6);
    expect(iso?.rules).toBeGreaterThanOrEqual(12);
    expect(forest?.symbols).toBeGreaterThanOrEqual(10);
    expect(tokens?.bars).toBeGreaterThan(4);
    expect(await page.locator('table.arm-table tbody tr').count()).toBe(4);
    expect(await page.locator('#cb-body tr.case-row').count()).toBe(50);
    await page.selectOption('#cb-filter', 'won');
    await page.locator('#cb-body tr.case-row').first().click();
    await expect.poll(() => page.locator('.detail .arm-card').count()).toBe(4);
    await page.screenshot({ path: join(ARTIFACTS, 'report-date-parser.png'), fullPage: true });
    expect(existsSync(join(ARTIFACTS, 'report-date-parser.png'))).toBe(true);
  });

  test('model output with <script> and <img onerror> is shown as text and never runs', async () => {
    const results = join(runDir, 'results.jsonl');
    const lines = readFileSync(results, 'utf8').trim().split('\n');
    const target = (JSON.parse(lines[0] ?? '{}') as ResultRecord).case_id;
    const poisoned = lines.map((line) => {
      const r = JSON.parse(line) as ResultRecord;
      if (r.case_id !== target) return line;
      return JSON.stringify({ ...r, paths: r.paths.map((p) => ({ ...p, output: `${PAYLOAD} ${p.output}`, error: PAYLOAD })) });
    });
    writeFileSync(results, `${poisoned.join('\n')}\n`);
    acceptLedgerEdits(runDir);
    const verdictFile = join(runDir, 'verdict.json');
    const verdict = JSON.parse(readFileSync(verdictFile, 'utf8')) as { reason: string; candidate_id: string };
    writeFileSync(verdictFile, JSON.stringify({ ...verdict, reason: `${verdict.reason} ${PAYLOAD}`, candidate_id: PAYLOAD }));

    const rendered = await runCli(['report', runDir]);
    expect(rendered.code, rendered.stderr).toBe(0);
    const { page, consoleErrors, dialogs } = await open(join(runDir, 'report.html'));
    await page.fill('#cb-search', target);
    await page.locator('#cb-body tr.case-row').first().click();
    await expect.poll(() => page.locator('.detail .output pre').count()).toBeGreaterThan(0);
    await page.waitForTimeout(200);

    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(2);
    const outputs = await page.locator('.detail .output pre').allTextContents();
    expect(outputs.some((text) => text.startsWith(PAYLOAD))).toBe(true);
    expect(await page.locator('.verdict-who b').first().textContent()).toBe(PAYLOAD);
    expect(await page.locator('.reason').textContent()).toContain(PAYLOAD);
    await page.screenshot({ path: join(ARTIFACTS, 'report-escaped-output.png') });
  });

  // Issue 11, item 6: undefined intervals are drawn as no bar and said "n/a", never NaN.
  test.each([
    { name: 'a regression set of one case both arms fail', keep: (r: ResultRecord, firstRegression: string) => r.split !== 'regression' || r.case_id === firstRegression, fail: (r: ResultRecord) => r.split === 'regression' },
    { name: 'a 1-case run', keep: (r: ResultRecord, firstRegression: string, firstVal: string) => r.case_id === firstVal || r.case_id === firstRegression, fail: () => false },
  ])('$name: no console error, no NaN in any chart, the error column shown', async ({ keep, fail }) => {
    // A run directory of its own parent: the verdict's history reads sibling runs.
    const dir = join(mkdtempSync(join(tmpdir(), 'isobudget-report-nan-')), 'run');
    cpSync(runDir, dir, { recursive: true });
    // The test above gave one case's paths an error: clear it, this report is about intervals.
    const records = readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as ResultRecord)
      .map((r) => ({ ...r, paths: r.paths.map((p) => ({ ...p, error: undefined })) }));
    const firstRegression = records.find((r) => r.split === 'regression')?.case_id ?? '';
    const firstVal = records.find((r) => r.split !== 'regression')?.case_id ?? '';
    const kept = records.filter((r) => keep(r, firstRegression, firstVal)).map((r) =>
      fail(r) ? { ...r, passed: false, passed_any: false, passes: 0, paths: r.paths.map((p) => ({ ...p, passed: false })) } : r,
    );
    writeFileSync(join(dir, 'results.jsonl'), `${kept.map((r) => JSON.stringify(r)).join('\n')}\n`);
    acceptLedgerEdits(dir);
    const verdict = verdictForRun(dir);
    await writeRunReport(dir, { verdict });
    const { page, consoleErrors } = await open(join(dir, 'report.html'));
    expect(consoleErrors).toEqual([]);
    const svgs = await page.$$eval('figure.chart svg', (nodes) => nodes.map((n) => n.outerHTML));
    expect(svgs.length).toBeGreaterThanOrEqual(2);
    for (const svg of svgs) expect(svg).not.toMatch(/NaN/);
    // The case data is gzip+base64: three of its letters may spell "NaN" by chance.
    expect(readFileSync(join(dir, 'report.html'), 'utf8').replace(/<script type="text\/plain" id="case-data"[^>]*>[^<]*<\/script>/, '')).not.toMatch(/NaN/);
    // One case still has a (wide) score interval (Tango 1998), never NaN and never zero-width.
    expect(verdict.regression_set).toMatchObject({ cases: 1 });
    const [lower, upper] = verdict.regression_set?.ci95 ?? [Number.NaN, Number.NaN];
    expect(Number.isFinite(lower) && Number.isFinite(upper) && upper - lower > 0.5).toBe(true);
    expect(await page.locator('table.arm-table thead th').last().textContent()).toBe('paths ended in an error');
    expect(await page.locator('table.arm-table td.errors').first().textContent()).toMatch(/^0 \/ \d+0\.0%$/);
  });
});
