import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { IsobudgetError } from '../../core/errors.js';
import { KeyStore } from './key-store.js';
import { formatTags, parseTags } from './virtual-key.js';

describe('KeyStore', () => {
  test('only a hash of the secret is stored; the file is owner-only', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'isobudget-keys-')), 'keys.sqlite');
    const store = KeyStore.open(file);
    const { key, secret } = store.create({ budget: 1000, tags: { run: 'r1', arm: 'candidate_single' } });
    expect(secret.startsWith(`ibk-${key.id}-`)).toBe(true);
    store.close();
    expect(readFileSync(file).includes(Buffer.from(secret))).toBe(false);
    const rows = new Database(file, { readonly: true }).prepare('SELECT * FROM keys').all();
    expect(JSON.stringify(rows)).not.toContain(secret.slice(-20));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test('verify, list, revoke, and spend that survives a reopen', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'isobudget-keys-')), 'keys.sqlite');
    const store = KeyStore.open(file);
    const { key, secret } = store.create({ budget: 500, tags: { run: 'r' } });
    expect(store.verify(secret)?.id).toBe(key.id);
    expect(store.verify(`${secret}x`)).toBeUndefined();
    store.addSpent(key.id, 120);
    expect(store.get(key.id)?.spent).toBe(120); // pending spend is visible at once
    store.close();
    // Another process (the CLI) sees what the gateway booked, and may revoke.
    const again = KeyStore.open(file);
    expect(again.list().map((k) => [k.id, k.budget, k.spent, k.revoked])).toEqual([[key.id, 500, 120, false]]);
    expect(again.revoke(key.id)).toBe(true);
    expect(again.verify(secret)?.revoked).toBe(true);
    expect(again.revoke('nope')).toBe(false);
    again.close();
  });

  test('keys without a budget only record', () => {
    const store = KeyStore.open(':memory:');
    expect(store.create({ budget: undefined, tags: {} }).key.budget).toBeUndefined();
    store.close();
  });
});

describe('tags', () => {
  test('parse and format', () => {
    expect(parseTags('run=bf-1,case=date-014, arm=candidate_single')).toEqual({ run: 'bf-1', case: 'date-014', arm: 'candidate_single' });
    expect(formatTags({ run: 'a', case: 'b' })).toBe('run=a,case=b');
    expect(parseTags(undefined)).toEqual({});
    expect(() => parseTags('Run=x')).toThrow(IsobudgetError);
    expect(() => parseTags('run=')).toThrow(IsobudgetError);
  });
});
