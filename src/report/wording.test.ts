/**
 * Wording that misleads (issue 15, item 8). A run screens; `gate` promotes: a real_evolution
 * run on val says "passes screening on val — next: `isobudget gate …`" in the terminal, the
 * Markdown summary and the report, and "promotable" nowhere. And what binds an arm is said
 * so that it agrees with "paths cut by B" beside it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { analyzeResults } from '../analysis/analyze-run.js';
import { loadConfig } from '../config/index.js';
import { contextFromManifest } from '../verdict/verdict-for-run.js';
import type { VerdictRecord } from '../verdict/record.js';
import { armTableSection } from './html/arm-table-section.js';
import { writeSyntheticRun } from './html/synthetic-run.js';
import { verdictSection } from './html/verdict-section.js';
import { renderMarkdownSummary } from './markdown-summary.js';
import { renderVerdict } from './verdict-text.js';

const run = writeSyntheticRun({ dir: mkdtempSync(join(tmpdir(), 'isobudget-wording-')), cases: 40, rounds: 100 });
const CONFIG = 'examples/date-parser/experiment.yaml';
const as = (verdict: VerdictRecord['verdict'], split = 'val'): VerdictRecord => ({ ...run.verdict, verdict, split });

describe('a passing run passes screening; it is not promotable', () => {
  test('terminal, Markdown and report say "passes screening on val — next: isobudget gate …"', () => {
    const record = as('real_evolution');
    expect(renderVerdict(record, { configPath: CONFIG })).toContain(`  passes screening on val — next: isobudget gate ${CONFIG} (promotion needs the test split`);
    const markdown = renderMarkdownSummary(record, { configPath: CONFIG });
    expect(markdown).toContain(`**Passes screening on val — next: \`isobudget gate ${CONFIG}\` (promotion needs the test split`);
    const html = verdictSection(record, run.manifest);
    expect(html).toContain(`<b>Passes screening on val — next: <code>isobudget gate ${run.manifest.config_path}</code></b>`);
    for (const text of [renderVerdict(record), markdown, html]) expect(text).not.toMatch(/\bpromotable\b/i);
  });

  test('on the test split it still points to the gate; a seed ledger gets a placeholder path', () => {
    expect(renderVerdict(as('real_evolution', 'test'), { configPath: CONFIG })).toContain(`passes on the test split, which is not a promotion — next: isobudget gate ${CONFIG}`);
    expect(renderVerdict(as('real_evolution'))).toContain('next: isobudget gate EXPERIMENT.yaml');
    expect(renderVerdict(as('real_evolution'), { configPath: 'my dir/exp.yaml' })).toContain(`isobudget gate 'my dir/exp.yaml'`);
  });

  test('any other verdict: no screening pass', () => {
    for (const verdict of ['no_gain', 'budget_leakage', 'inconclusive', 'regression'] as const) {
      const record = as(verdict);
      for (const text of [renderVerdict(record, { configPath: CONFIG }), renderMarkdownSummary(record, { configPath: CONFIG }), verdictSection(record, run.manifest)]) expect(text).not.toContain('passes screening');
    }
  });
});

describe('what binds', () => {
  const cutArm = 'candidate_best_of_8';
  const arms = run.verdict.arms.map((a) => (a.arm === cutArm ? { ...a, budgetExhaustedRate: 0.485 } : a));
  // A manifest written before the fix: every arm planned "not binding".
  const stale = { ...run.manifest, arms: run.manifest.arms.map((a) => ({ ...a, binding: false })) };
  const row = (html: string, arm: string): string => html.split('<tr').find((r) => r.includes(`</span> ${arm}</th>`)) ?? '';

  test('an arm some of whose paths B cut never reads "B not binding" in the report', () => {
    const html = armTableSection(arms, stale, 0.95);
    expect(row(html, cutArm)).toContain('B binds');
    expect(row(html, cutArm)).not.toContain('not binding');
    expect(row(html, 'baseline_single')).toContain('B not binding');
  });

  test('agent arms: the cap is per turn and the share ⌊B/n⌋ per path is named', async () => {
    const toolLoop = await loadConfig(join(import.meta.dirname, '..', '..', 'examples', 'tool-loop', 'experiment.yaml'));
    const html = armTableSection(arms, { ...stale, config: toolLoop }, 0.95);
    expect(row(html, cutArm)).toMatch(/ \/ turn<div class="ci">B binds: 500 \/ path · /);
    expect(row(html, cutArm)).toContain('B cut 48.5% of the paths');
  });

  test('the verdict drops an arm from non_binding_arms once B cut one of its paths', () => {
    const results = run.results.map((r, i) => (r.arm === 'baseline_single' && i < 40 ? { ...r, paths: r.paths.map((p) => ({ ...p, finish_reason: 'budget_exhausted' as const })) } : r));
    const context = contextFromManifest(run.manifest);
    expect([...context.nonBindingArms].sort()).toEqual(['baseline_single', 'candidate_single']);
    expect(analyzeResults(results, context).invariants.nonBindingArms).toEqual(['candidate_single']);
  });
});

test('the terminal names the n=1 interval by its method, never a fixed "BCa"', () => {
  const sb = run.verdict.same_budget;
  if (!sb) throw new Error('the synthetic run has a same-budget comparison');
  expect(renderVerdict({ ...run.verdict, same_budget: { ...sb, ci_method: 'tango-score' } })).toContain('(Tango score; McNemar p=');
  expect(renderVerdict({ ...run.verdict, same_budget: { ...sb, ci_method: 'cluster-bootstrap' } })).toContain('(cluster bootstrap; McNemar p=');
});
