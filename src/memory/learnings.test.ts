import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importLearnings } from './import-learnings.js';
import { days, T0, tempStore } from './test-support/fixtures.js';

const defaults = { source_run: 'bf-cli-1', base_url: 'https://taotoken.net/api', model: 'cand', budget: 200000, n: 1, verdict: 'no_gain' };

function notes(dir: string, files: Record<string, string>): string {
  const folder = join(dir, '.learnings');
  mkdirSync(folder, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return dir;
}

describe('memory import-learnings', () => {
  test('front matter is optional; provenance falls back to the defaults; a note still missing a field is refused by name', async () => {
    const { store, dir } = tempStore();
    notes(dir, {
      'plain.md': '# Retries hide timeouts\n\nThree retries made the tool loop look reliable.\n',
      'with-front.md': '---\nrun_id: bf-9\nmodel: cand-2\nbudget: 1500\nn: 8\nverdict: budget_leakage\npattern: retry storm\n---\nOnly at n=8.\n',
      'no-model.md': '---\nrun_id: bf-2\n---\nno model here\n',
    });
    const partial = await importLearnings(dir, { base_url: 'sim://local', budget: 1000, n: 1, verdict: 'no_gain' }, store, T0);
    expect(partial.refused.map((r) => r.message)).toEqual([
      'memory record from .learnings/no-model.md refused: missing provenance field `model`',
      'memory record from .learnings/plain.md refused: missing provenance fields `source_run`, `model`',
    ]);
    const plan = await importLearnings(dir, defaults, store, T0);
    expect(plan.refused).toEqual([]);
    const records = await store.listRecords({ types: ['learning'] });
    const plain = records.find((r) => r.source === '.learnings/plain.md');
    expect(plain).toMatchObject({ title: 'Retries hide timeouts', source_run: 'bf-cli-1', model: 'cand', weight: 0.5, status: 'active', subject: 'plain' });
    expect(records.find((r) => r.source === '.learnings/with-front.md')).toMatchObject({ source_run: 'bf-9', budget: 1500, n: 8, verdict: 'budget_leakage', subject: 'retry storm', pattern: 'retry storm' });
    store.close();
  });

  test('re-importing an unchanged note does nothing; an edited note is a new version with a diff', async () => {
    const { store, dir } = tempStore();
    notes(dir, { 'a.md': 'line one\n' });
    await importLearnings(dir, defaults, store, T0);
    const unchanged = await importLearnings(dir, defaults, store, days(1));
    expect(unchanged.writes).toEqual([]);
    notes(dir, { 'a.md': 'line one\nline two\n' });
    await importLearnings(dir, defaults, store, days(2));
    const versions = await store.listVersions('mem-a-001');
    expect(versions.map((v) => v.record.version)).toEqual([1, 2]);
    expect(versions[1]?.diff).toContain('+line two');
    store.close();
  });

  test('a rule-level note is held frozen and queued for a human', async () => {
    const { store, dir } = tempStore();
    notes(dir, { 'rule.md': '---\nlevel: rule\ntitle: Never raise n without review\n---\nRule text.\n' });
    const plan = await importLearnings(dir, defaults, store, T0);
    expect(plan.reviewItems.map((i) => [i.kind, i.reasons])).toEqual([['memory_write', ['rule-level memory write']]]);
    expect((await store.listRecords())[0]).toMatchObject({ status: 'frozen', level: 'rule', status_reason: 'awaiting human review: rule-level memory write' });
    store.close();
  });
});
