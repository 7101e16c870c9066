import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ExperimentConfig } from '../config/types.js';
import { IsobudgetError } from '../core/errors.js';
import { checkCodeFiles, collectCodeFiles, rebasePaths } from './code-files.js';

function project(): { root: string; config: ExperimentConfig } {
  const root = mkdtempSync(join(tmpdir(), 'isobudget-code-'));
  mkdirSync(join(root, 'exp', 'fixture', 'src'), { recursive: true });
  writeFileSync(join(root, 'exp', 'score.mjs'), 'export const score = () => ({ passed: true, value: 1 });\n');
  writeFileSync(join(root, 'exp', 'agent.mjs'), 'console.log(1)\n');
  writeFileSync(join(root, 'exp', 'fixture', 'src', 'a.txt'), 'a\n');
  const config = {
    configPath: join(root, 'exp', 'experiment.yaml'),
    scorer: { type: 'module', module: join(root, 'exp', 'score.mjs'), export: 'score' },
    selector: { type: 'oracle' },
    executor: { type: 'command', argv: ['/usr/bin/node', '{{config_dir}}/agent.mjs', '{{input}}'], fixtureDir: join(root, 'exp', 'fixture') },
  } as unknown as ExperimentConfig;
  return { root, config };
}

describe('code files a distributed unit needs', () => {
  test('module scorer, fixture_dir and project files in argv — not the interpreter — by relative path and hash', () => {
    const { root, config } = project();
    const files = collectCodeFiles(config, root);
    expect(files.map((f) => f.path)).toEqual(['exp/agent.mjs', 'exp/fixture', 'exp/score.mjs']);
    expect(() => checkCodeFiles(files, root, 'r1')).not.toThrow();
  });

  test('a changed file inside fixture_dir, or a missing one, is refused by its path', () => {
    const { root, config } = project();
    const files = collectCodeFiles(config, root);
    writeFileSync(join(root, 'exp', 'fixture', 'src', 'a.txt'), 'b\n');
    expect(() => checkCodeFiles(files, root, 'r1')).toThrow(/run r1: exp\/fixture differs on this worker/);
    const elsewhere = mkdtempSync(join(tmpdir(), 'isobudget-other-'));
    const error = (() => { try { checkCodeFiles(files, elsewhere, 'r1'); } catch (e) { return e; } })();
    expect(error).toBeInstanceOf(IsobudgetError);
    expect((error as IsobudgetError).message).toMatch(/exp\/agent\.mjs is missing on this worker/);
  });

  test('a file outside the project root cannot be shipped by path: refused at submission', () => {
    const { root, config } = project();
    const outside = { ...config, scorer: { type: 'module', module: '/opt/elsewhere/score.mjs', export: 'score' } } as unknown as ExperimentConfig;
    expect(() => collectCodeFiles(outside, root)).toThrow(/outside the project root/);
  });

  test('the submitter\'s absolute paths map onto the worker\'s root', () => {
    expect(rebasePaths({ a: '/home/ana/repo/exp/x.yaml', b: ['/home/ana/repo', '/home/ana/repository/y'], n: 3 }, '/home/ana/repo', '/srv/ci/repo'))
      .toEqual({ a: '/srv/ci/repo/exp/x.yaml', b: ['/srv/ci/repo', '/home/ana/repository/y'], n: 3 });
  });
});
