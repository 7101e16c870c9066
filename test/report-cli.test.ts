/**
 * The report, JUnit and compare through the real CLI: every run writes report.html, `--junit`
 * writes the gate as JUnit XML, `report RUN_DIR` re-renders, `compare` refuses other datasets
 * without --force.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from './support/cli.js';
import { writeExperiment } from './support/experiment.js';

describe('report, junit and compare on the CLI', async () => {
  const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 24 });
  const junit = join(experiment.dir, 'gate.xml');
  const run = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'first', '--quiet', '--gate', '--junit', junit, '--sim-latency-scale', '0'], { cwd: experiment.dir });
  const runDir = join(experiment.runsDir, 'first');

  test('run writes report.html beside the ledger and says where; --junit writes the gate', () => {
    expect([0, 10, 11]).toContain(run.code);
    expect(run.stdout).toContain(`report: ${join(runDir, 'report.html')}`);
    const html = readFileSync(join(runDir, 'report.html'), 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('role-mark');
    const xml = readFileSync(junit, 'utf8');
    const verdict = JSON.parse(readFileSync(join(runDir, 'verdict.json'), 'utf8')) as { verdict: string; checks: unknown[] };
    expect(xml).toContain(`<property name="verdict" value="${verdict.verdict}"/>`);
    expect(xml.match(/<testcase /g)).toHaveLength(verdict.checks.length + 1);
    expect(xml.includes('name="promotable" time="0"/>')).toBe(verdict.verdict === 'real_evolution');
  });

  test('report RUN_DIR re-renders (and --out elsewhere); analyze --no-report leaves it alone', async () => {
    rmSync(join(runDir, 'report.html'));
    const analyzed = await runCli(['analyze', runDir, '--no-report', '--rounds', '200']);
    expect(analyzed.code).toBe(0);
    expect(existsSync(join(runDir, 'report.html'))).toBe(false);
    const report = await runCli(['report', runDir]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/^report: .*report\.html \(\d+ KiB\)/);
    expect(existsSync(join(runDir, 'report.html'))).toBe(true);
    const out = join(experiment.dir, 'elsewhere.html');
    const markdown = await runCli(['report', runDir, '--out', out, '--markdown']);
    expect(markdown.stdout).toContain('## ');
    expect(existsSync(out)).toBe(true);
    expect((await runCli(['report'])).code).toBe(2);
    expect((await runCli(['report', join(experiment.dir, 'nope')])).code).toBe(2);
  });

  test('compare: a run with itself moves nothing; another split is refused without --force', async () => {
    const same = await runCli(['compare', runDir, runDir]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toContain('datasets: same cases');
    expect(same.stdout).toContain('no case flipped');
    const json = JSON.parse((await runCli(['compare', runDir, runDir, '--json'])).stdout) as { arms: Array<{ pass: { delta: { value: number } } }> };
    expect(json.arms.every((a) => a.pass.delta.value === 0)).toBe(true);
    // The same experiment on its val split twice, with the dataset edited in between.
    const second = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'second', '--quiet', '--no-report', '--sim-latency-scale', '0'], { cwd: experiment.dir });
    expect(second.code).not.toBe(2);
    const manifestPath = join(experiment.runsDir, 'second', 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { datasets: { val: { sha256: string } } };
    manifest.datasets.val.sha256 = '0'.repeat(64);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const refused = await runCli(['compare', runDir, join(experiment.runsDir, 'second')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('the runs did not use the same cases');
    expect(refused.stderr).toContain('--force');
    const forced = await runCli(['compare', runDir, join(experiment.runsDir, 'second'), '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('datasets DIFFER (--force');
    expect(readdirSync(experiment.runsDir).sort()).toEqual(['first', 'second']);
  });
});
