import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { parseFrontMatter } from '../memory/front-matter.js';
import { ingestRun } from '../memory/ingest-run.js';
import { promoteCandidate } from '../memory/promote.js';
import { planRollback } from '../memory/rollback.js';
import { days, fakeRun, T0, tempStore } from '../memory/test-support/fixtures.js';
import { nextVersion, writeOf } from '../memory/versioning.js';
import { exportSkills } from './write-skills.js';

describe('skills export', () => {
  test('an approved skill becomes DIR/<name>/SKILL.md with front matter and provenance; unchanged skills are not rewritten', async () => {
    const { store, dir } = tempStore();
    await ingestRun(fakeRun({ run_id: 'bf-val-1', verdict: 'real_evolution', delta: 0.24 }), store, T0);
    await ingestRun(fakeRun({ run_id: 'bf-test-1', verdict: 'real_evolution', split: 'test' }), store, days(1));
    const records = await store.listRecords();
    const candidate = records[0];
    if (!candidate) throw new Error('no candidate');
    await store.commit({ records: promoteCandidate(candidate, records, { reviewer: 'ana', note: null, at: days(2).toISOString(), gate_id: 'gate-0001', review_id: 'rev-0001' }, days(2)).writes });
    const skills = join(dir, 'skills');
    const first = exportSkills(await store.listRecords(), skills);
    expect(first.written).toEqual([join(skills, 'date-parser', 'SKILL.md')]);
    const doc = parseFrontMatter(readFileSync(join(skills, 'date-parser', 'SKILL.md'), 'utf8'));
    expect(doc.data).toMatchObject({
      name: 'date-parser', description: 'd', version: 3,
      isobudget: { memory_id: 'mem-date-parser-002', verdict: 'real_evolution', source_run: 'bf-val-1', run_ids: ['bf-val-1', 'bf-test-1'], budget: 3000, n: 1, base_url: 'sim://local', model: 'sim-small', same_budget_delta: 0.24, approved_by: 'ana', gate_id: 'gate-0001' },
    });
    expect(doc.body).toBe('Rules v2\nPlus two-digit years\n');
    expect(exportSkills(await store.listRecords(), skills).unchanged).toHaveLength(1);
    store.close();
  });

  test('rollback restores the previous text on the next export; a frozen skill is taken out; foreign skills are left alone', async () => {
    const { store, dir } = tempStore();
    const approval = { reviewer: 'ana', note: null, at: T0.toISOString(), gate_id: null, review_id: null };
    for (const [candidate, extra] of [['skill-date-parser-v3', ''], ['skill-date-parser-v4', 'One more rule.\n']] as const) {
      await ingestRun(fakeRun({ run_id: candidate, verdict: 'real_evolution', candidate_id: candidate }), store, T0);
      const records = await store.listRecords();
      const record = records.find((r) => r.candidate_id === candidate && r.type === 'skill_candidate');
      if (!record?.skill) throw new Error('no candidate');
      await store.commit({ records: promoteCandidate({ ...record, skill: { ...record.skill, text: record.skill.text + extra } }, records, approval, T0).writes });
    }
    const skills = join(dir, 'skills');
    mkdirSync(join(skills, 'handmade'), { recursive: true });
    writeFileSync(join(skills, 'handmade', 'SKILL.md'), '---\nname: handmade\ndescription: mine\n---\nkeep me\n');
    exportSkills(await store.listRecords(), skills);
    const file = join(skills, 'date-parser', 'SKILL.md');
    expect(readFileSync(file, 'utf8')).toContain('One more rule.');
    const skill = (await store.listRecords({ types: ['skill'] }))[0];
    await store.commit({ records: [planRollback(await store.listVersions(skill?.memory_id ?? ''), days(1), { by: 'ana' }).write] });
    expect(exportSkills(await store.listRecords(), skills).written).toEqual([file]);
    expect(readFileSync(file, 'utf8')).not.toContain('One more rule.');
    expect((parse(readFileSync(file, 'utf8').split('---')[1] ?? '') as { version: number }).version).toBe(3);
    const head = (await store.listRecords({ types: ['skill'] }))[0];
    if (!head) throw new Error('no skill');
    await store.commit({ records: [writeOf(head, nextVersion(head, { status: 'frozen', status_reason: 'test' }, 'frozen', days(2)))] });
    expect(exportSkills(await store.listRecords(), skills).removed).toEqual([file]);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(skills, 'handmade', 'SKILL.md'))).toBe(true);
    store.close();
  });
});
