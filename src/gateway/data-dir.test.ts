import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { IsobudgetError } from '../core/errors.js';
import { ensureGatewayDir, gatewayPaths } from './data-dir.js';

const root = mkdtempSync(join(tmpdir(), 'isobudget-data-dir-'));

test('a data dir that is a file, or whose ledger folder is a file, is a usage error naming it', () => {
  const file = join(root, 'a-file');
  writeFileSync(file, 'x');
  for (const dir of [file, '/dev/null']) {
    const paths = gatewayPaths(dir, {}, root);
    expect(() => ensureGatewayDir(paths)).toThrow(IsobudgetError);
    expect(() => ensureGatewayDir(paths)).toThrow(`gateway data dir ${dir} is not a directory`);
  }
  const nested = gatewayPaths(join(root, 'd'), {}, root);
  ensureGatewayDir({ ...nested, ledger: join(nested.dir, 'ledger') });
  writeFileSync(join(root, 'd2'), '');
  expect(() => ensureGatewayDir(gatewayPaths(join(root, 'd2', 'sub'), {}, root))).toThrow('is not a directory');
});

test('a missing data dir is created with its ledger folder', () => {
  const paths = gatewayPaths(join(root, 'new', 'gw'), {}, root);
  ensureGatewayDir(paths);
  ensureGatewayDir(paths);
});
