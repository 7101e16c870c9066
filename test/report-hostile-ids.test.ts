/**
 * Case ids and categories are data, and data can be hostile: ids `__proto__`, `constructor`,
 * `toString` must open and close like any other in the report's case table (not open on
 * load and stay open); an id with a lone surrogate must neither kill the report ("URI
 * malformed") nor lose its link; a category carrying ESC / OSC 52 must not reach the SVG's
 * aria-labels. Checked in a real browser (Debian chromium through playwright-core).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ResultRecord } from '../src/ledger/records.js';
import { runCli } from './support/cli.js';
import { acceptLedgerEdits } from './support/accept-ledger-edits.js';

const CHROMIUM = '/usr/bin/chromium';
const SURROGATE_ID = 'lone-\uD800-id';
const PROTOTYPE_IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
const HOSTILE_CATEGORY = 'iso\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J';

function writeHostileExperiment(): { configPath: string; runsDir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-hostile-ids-'));
  mkdirSync(join(dir, 'data'));
  const ids = [...PROTOTYPE_IDS, SURROGATE_ID, ...Array.from({ length: 7 }, (_, i) => `c${i + 1}`)];
  const rows = ids.map((id, i) => JSON.stringify({ id, input: `What is ${i + 1} + ${(i + 1) * 2}?`, expected: String((i + 1) * 3), category: i % 2 ? HOSTILE_CATEGORY : 'plain' }));
  writeFileSync(join(dir, 'data', 'val.jsonl'), `${rows.join('\n')}\n`);
  const yaml = [
    'experiment: hostile-ids',
    'provider: { preset: sim }',
    'variants:',
    '  baseline: { id: arith-v1, model: sim-small, system_prompt: "Answer arithmetic questions." }',
    '  candidate: { id: arith-v2, model: sim-small, system_prompt: "Answer arithmetic questions. Show the sum." }',
    'budget: { total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1, 4] }',
    'datasets: { val: data/val.jsonl }',
    'scorer: numeric',
    'seed: 5',
  ].join('\n');
  writeFileSync(join(dir, 'experiment.yaml'), `${yaml}\n`);
  return { configPath: join(dir, 'experiment.yaml'), runsDir: join(dir, 'runs') };
}

describe.skipIf(!existsSync(CHROMIUM))('hostile case ids in the report', () => {
  let browser: Browser;
  let report: string;

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
    const experiment = writeHostileExperiment();
    const run = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'r', '--quiet', '--no-report', '--sim-latency-scale', '0']);
    expect(run.code, run.stderr).toBe(0);
    const runDir = join(experiment.runsDir, 'r');
    // Make the candidate lose the surrogate case at n=1, so the regression section links to it.
    const results = join(runDir, 'results.jsonl');
    const lines = readFileSync(results, 'utf8').trim().split('\n').map((line) => {
      const r = JSON.parse(line) as ResultRecord;
      if (r.case_id !== SURROGATE_ID || r.n !== 1) return line;
      const passed = r.variant === 'baseline';
      return JSON.stringify({ ...r, passed, passed_any: passed, passes: passed ? 1 : 0, paths: r.paths.map((p) => ({ ...p, passed })) });
    });
    writeFileSync(results, `${lines.join('\n')}\n`);
    acceptLedgerEdits(runDir);
    rmSync(join(runDir, 'verdict.json'), { force: true });
    const rendered = await runCli(['report', runDir]);
    expect(rendered.code, rendered.stderr).toBe(0);
    expect(rendered.stderr).toBe('');
    report = join(runDir, 'report.html');
  });

  afterAll(async () => {
    await browser?.close();
  });

  test('prototype-named ids open and close like any other; the surrogate id links; no ESC in aria-labels', async () => {
    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(pathToFileURL(report).href, { waitUntil: 'load' });
    await page.waitForSelector('html[data-cases-ready]');
    expect(await page.locator('#cb-body tr.case-row').count()).toBe(12);
    // Nothing opens by itself.
    expect(await page.locator('#cb-body tr.detail-row').count()).toBe(0);
    for (const id of PROTOTYPE_IDS) {
      const row = page.locator('#cb-body tr.case-row', { has: page.locator('td.id', { hasText: new RegExp(`^${id}$`) }) });
      await row.click();
      expect(await page.locator('#cb-body tr.detail-row').count(), `${id} opens`).toBe(1);
      await row.click();
      expect(await page.locator('#cb-body tr.detail-row').count(), `${id} closes`).toBe(0);
    }
    // The lost surrogate case is linked from the regression section, and the link opens it.
    const link = page.locator('a.case-link[href="#case=lone-%EF%BF%BD-id"]');
    expect(await link.count()).toBe(1);
    await link.click();
    await expect.poll(() => page.locator('#cb-body tr.detail-row').count()).toBe(1);
    expect(await page.locator('#cb-body tr.case-row').count()).toBe(1);
    // A malformed hash typed by hand is ignored, not an error.
    await page.evaluate(() => {
      location.hash = '#case=%E0%A4%A';
    });
    await page.waitForTimeout(100);
    const labels = await page.$$eval('svg [aria-label], svg[aria-label]', (nodes) => nodes.map((n) => n.getAttribute('aria-label') ?? ''));
    expect(labels.some((l) => l.includes('iso'))).toBe(true);
    for (const label of labels) expect(label).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    const svgs = await page.$$eval('svg', (nodes) => nodes.map((n) => n.outerHTML).join(''));
    expect(svgs).toContain('iso\\u001b]52;c;');
    expect(svgs).not.toContain('\u001b');
    expect(errors).toEqual([]);
  });
});
