/**
 * The report of a 5,000-case run (20,000 results, 18 outputs per case) stays under 15 MB and
 * renders in a browser: every case in the browsable table, charts with data marks. How fast it
 * opens is measured by bench/report-open.mjs, not asserted here (timing depends on the machine).
 */
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { expect, test } from 'vitest';
import { renderReport } from '../src/report/html/render-report.js';
import { writeSyntheticRun } from '../src/report/html/synthetic-run.js';

const CHROMIUM = '/usr/bin/chromium';

test('5,000 cases: under 15 MB, long outputs cut with a note, renders every case', { timeout: 240_000 }, async () => {
  const run = writeSyntheticRun({ dir: mkdtempSync(join(tmpdir(), 'isobudget-report-large-')), cases: 5000, rounds: 300 });
  expect(run.results).toHaveLength(20_000);
  const { html, warnings } = await renderReport({ verdict: run.verdict, manifest: run.manifest, results: run.results, texts: run.texts, notes: [], generatedAt: new Date() });
  const file = join(run.dir, 'report.html');
  writeFileSync(file, html);
  expect(warnings).toEqual([]);
  expect(statSync(file).size).toBeLessThan(15_000_000);
  expect(html).toMatch(/long outputs are cut at [\d,]+ characters/);
  if (!existsSync(CHROMIUM)) return;

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
  try {
    const context = await browser.newContext();
    await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(pathToFileURL(file).href, { timeout: 120_000 });
    await page.waitForSelector('html[data-cases-ready="5000"]', { timeout: 120_000 });
    expect(errors).toEqual([]);
    expect(await page.locator('#cb-count').textContent()).toBe('5,000 of 5,000 cases');
    expect(await page.locator('#cb-body tr.case-row').count()).toBe(50);
    expect(await page.locator('svg .role-mark').count()).toBeGreaterThan(10);
    await page.fill('#cb-search', 'case-04999');
    await expect.poll(() => page.locator('#cb-count').textContent()).toBe('1 of 5,000 cases');
    await page.locator('#cb-body tr.case-row').first().click();
    await expect.poll(() => page.locator('.detail .arm-card').count()).toBe(4);
  } finally {
    await browser.close();
  }
});
