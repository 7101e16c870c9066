/**
 * init's "next:" lines print what works from where they are (issue 25, item 6): `isobudget`
 * once it is on PATH (npm link), `npx isobudget` inside the clone, `node …/bin.js` elsewhere.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runCli } from './support/cli.js';

const temp = (): string => mkdtempSync(join(tmpdir(), 'isobudget-hints-'));

test('inside a clone (a package.json named isobudget above): npx isobudget', async () => {
  const clone = temp();
  writeFileSync(join(clone, 'package.json'), '{ "name": "isobudget" }');
  mkdirSync(join(clone, 'work'));
  const init = await runCli(['init', 'exp'], { cwd: join(clone, 'work') });
  expect(init.code, init.stderr).toBe(0);
  expect(init.stdout).toContain('next:\n  npx isobudget validate exp/experiment.yaml\n');
});

test('with isobudget on PATH: isobudget', async () => {
  const bin = temp();
  writeFileSync(join(bin, 'isobudget'), '#!/bin/sh\n');
  chmodSync(join(bin, 'isobudget'), 0o755);
  const init = await runCli(['init', 'exp'], { cwd: temp(), env: { PATH: `${bin}:${process.env.PATH ?? ''}` } });
  expect(init.code, init.stderr).toBe(0);
  expect(init.stdout).toContain('next:\n  isobudget validate exp/experiment.yaml\n  isobudget doctor exp/experiment.yaml\n  isobudget run exp/experiment.yaml\n');
});
