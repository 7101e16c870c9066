import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { writeSyntheticRun } from './html/synthetic-run.js';
import { renderJunit, xml } from './junit.js';
import { renderMarkdownSummary } from './markdown-summary.js';

const { verdict } = writeSyntheticRun({ dir: mkdtempSync(join(tmpdir(), 'isobudget-junit-')), cases: 80, rounds: 200 });

test('one test case per check plus `promotable`; a promotable verdict has no failure', () => {
  const promoted = renderJunit({ ...verdict, verdict: 'real_evolution', checks: verdict.checks.map((c) => ({ ...c, passed: true })) });
  expect(promoted.match(/<testcase /g)).toHaveLength(verdict.checks.length + 1);
  expect(promoted).toContain(`tests="${verdict.checks.length + 1}" failures="0"`);
  expect(promoted).not.toContain('<failure');
});

test('not promotable: `promotable` fails with the verdict and its reason; failed checks fail', () => {
  const checks = [{ name: 'same_budget_gain', passed: false, detail: 'n=1 delta 0.01 vs min 0.08 <&>' }, { name: 'budget_respected', passed: true, detail: 'ok' }];
  const out = renderJunit({ ...verdict, verdict: 'budget_leakage', reason: 'only at n=8 "quoted"', checks });
  expect(out).toContain('tests="3" failures="2"');
  expect(out).toContain('<testcase classname="isobudget.gate" name="promotable" time="0">\n      <failure message="verdict budget_leakage" type="isobudget.gate">only at n=8 &quot;quoted&quot;</failure>');
  expect(out).toContain('n=1 delta 0.01 vs min 0.08 &lt;&amp;&gt;');
  expect(out).toContain('<property name="verdict" value="budget_leakage"/>');
});

test('characters XML cannot carry are dropped, the rest escaped', () => {
  expect(xml('a\u0000b\u0007c <"\'>& \uD800 😀')).toBe('abc &lt;&quot;&apos;&gt;&amp;  😀');
});

test('the Markdown summary shows every Best-of-N comparison beside n=1', () => {
  const md = renderMarkdownSummary(verdict);
  expect(md).toContain('Same budget (B=6000), n=1');
  expect(md).toContain('Best-of-8: selected@8');
  expect(md).toContain('pass@8 oracle');
});
