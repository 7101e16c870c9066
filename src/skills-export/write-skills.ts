/**
 * Writes every live skill to `DIR/<name>/SKILL.md` and takes out the ones isobudget exported
 * earlier that are no longer live (frozen, retired): an agent must not keep loading a skill
 * that regressed. Files without isobudget's provenance block are never touched.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFrontMatter } from '../memory/front-matter.js';
import type { MemoryRecord } from '../memory/record.js';
import { renderSkillMarkdown, skillFolderName } from './render-skill.js';

export interface SkillExport {
  written: string[];
  unchanged: string[];
  removed: string[];
}

export function exportSkills(records: readonly MemoryRecord[], dir: string): SkillExport {
  const result: SkillExport = { written: [], unchanged: [], removed: [] };
  const live = records.filter((r) => r.type === 'skill' && r.status === 'active' && r.skill);
  const liveFolders = new Set<string>();
  mkdirSync(dir, { recursive: true });
  for (const record of live) {
    const folder = skillFolderName(record.skill?.name ?? record.memory_id);
    liveFolders.add(folder);
    const file = join(dir, folder, 'SKILL.md');
    const text = renderSkillMarkdown(record);
    if (existsSync(file) && readFileSync(file, 'utf8') === text) {
      result.unchanged.push(file);
      continue;
    }
    mkdirSync(join(dir, folder), { recursive: true });
    const temp = `${file}.tmp-${process.pid}`;
    writeFileSync(temp, text);
    renameSync(temp, file);
    result.written.push(file);
  }
  for (const folder of readdirSync(dir, { withFileTypes: true })) {
    if (!folder.isDirectory() || liveFolders.has(folder.name)) continue;
    const file = join(dir, folder.name, 'SKILL.md');
    if (!existsSync(file)) continue;
    const marker = parseFrontMatter(readFileSync(file, 'utf8')).data?.['isobudget'];
    if (marker === null || typeof marker !== 'object' || typeof (marker as Record<string, unknown>)['memory_id'] !== 'string') continue;
    rmSync(file);
    if (readdirSync(join(dir, folder.name)).length === 0) rmdirSync(join(dir, folder.name));
    result.removed.push(file);
  }
  return result;
}
