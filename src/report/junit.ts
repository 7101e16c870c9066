/**
 * The gate as JUnit XML, pure, so CI systems (GitLab, Jenkins, Azure, GitHub test
 * reporters) show it as a test result: one test case per verdict check, plus `promotable`,
 * which fails unless the verdict is `real_evolution`. A check the verdict did not reach (the
 * rules stop at the first that fires) is absent, as it is in verdict.json.
 */
import type { VerdictRecord } from '../verdict/record.js';

export function renderJunit(record: VerdictRecord): string {
  const promotable = record.verdict === 'real_evolution';
  const cases = [
    ...record.checks.map((c) => testCase(c.name, c.passed ? undefined : { message: c.detail, body: c.detail })),
    testCase('promotable', promotable ? undefined : { message: `verdict ${record.verdict}`, body: record.reason }),
  ];
  const failures = record.checks.filter((c) => !c.passed).length + (promotable ? 0 : 1);
  const tests = record.checks.length + 1;
  const suite = `isobudget gate: ${record.candidate_id} vs ${record.baseline_id}`;
  const properties = [
    ['verdict', record.verdict],
    ['run_id', record.run_id],
    ['experiment', record.experiment],
    ['split', record.split],
    ['same_budget_delta', record.same_budget ? String(record.same_budget.delta) : ''],
    ['same_budget_ci95', record.same_budget?.ci95 ? record.same_budget.ci95.join(',') : ''],
    ['tokens_per_success_growth', String(record.same_budget?.tokens_per_success_growth ?? '')],
    ['budget', String(record.same_budget?.budget ?? '')],
  ].map(([name, value]) => `      <property name="${xml(name ?? '')}" value="${xml(value ?? '')}"/>`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="isobudget" tests="${tests}" failures="${failures}" errors="0">
  <testsuite name="${xml(suite)}" tests="${tests}" failures="${failures}" errors="0" skipped="0" timestamp="${xml(record.created_at)}">
    <properties>
${properties.join('\n')}
    </properties>
${cases.join('\n')}
    <system-out>${xml(record.reason)}</system-out>
  </testsuite>
</testsuites>
`;
}

function testCase(name: string, failure: { message: string; body: string } | undefined): string {
  const open = `    <testcase classname="isobudget.gate" name="${xml(name)}" time="0"`;
  return failure ? `${open}>\n      <failure message="${xml(failure.message)}" type="isobudget.gate">${xml(failure.body)}</failure>\n    </testcase>` : `${open}/>`;
}

/** XML text/attribute escaping; characters XML 1.0 cannot carry at all are dropped. */
export function xml(value: string): string {
  return value
    .replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
