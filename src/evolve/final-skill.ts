/**
 * The loop's hand-off: the final incumbent as a new versioned skill file beside the original
 * (exactly the text that was screened), its changelog beside it, and an experiment config
 * beside the original whose candidate variant is that file and whose baseline is still the
 * starting skill — what `isobudget gate` takes to the test split and a human. The loop never
 * runs the test split and never promotes by itself.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { parseDocument } from 'yaml';
import type { ExperimentConfig } from '../config/types.js';
import type { SkillFileVersion } from './derive-config.js';
import type { LineageEntry } from './types.js';

export interface FinalSkill {
  version: string;
  file: string;
  changelog: string;
  /** The experiment config for the gate. */
  gateConfig: string;
  candidateId: string;
  memoryId: string | null;
}

export function writeFinalSkill(input: { config: ExperimentConfig; evolveId: string; start: { version: string; file: string }; final: SkillFileVersion; lineage: readonly LineageEntry[]; loopDir: string; configText: string }): FinalSkill {
  const { final } = input;
  const dir = dirname(input.start.file);
  const base = basename(input.start.file, '.md').replace(/[-_.]v\d+(\.\d+)*$/i, '');
  // Never overwrite a file someone else wrote: a clash gets the loop id in its name.
  const plain = join(dir, `${base}-v${final.version}.md`);
  const file = existsSync(plain) && readFileSync(plain, 'utf8') !== final.text ? join(dir, `${base}-v${final.version}.${input.evolveId}.md`) : plain;
  writeFileSync(file, final.text);
  const changelog = file.replace(/\.md$/, '.changelog.md');
  writeFileSync(changelog, changelogText(input, file));
  const configPath = input.config.configPath;
  const gateConfig = join(dirname(configPath), `${basename(configPath).replace(/\.ya?ml$/i, '')}.${basename(file, '.md')}.yaml`);
  writeFileSync(gateConfig, gateConfigText(input.configText, input.config, final.variantId, relative(dirname(configPath), file), input.evolveId));
  const accepted = input.lineage.find((e) => e.status === 'accepted' && e.version === final.version);
  return { version: final.version, file, changelog, gateConfig, candidateId: final.variantId, memoryId: accepted?.memory_id ?? null };
}

/** The accepted steps from the start to the final version, newest first. */
export function acceptedPath(lineage: readonly LineageEntry[], finalVersion: string): LineageEntry[] {
  const byVersion = new Map(lineage.filter((e) => e.status === 'accepted' && e.version !== null).map((e) => [e.version as string, e]));
  const path: LineageEntry[] = [];
  for (let entry = byVersion.get(finalVersion); entry; entry = byVersion.get(entry.parent)) path.push(entry);
  return path;
}

function changelogText(input: { evolveId: string; start: { version: string; file: string }; final: SkillFileVersion; lineage: readonly LineageEntry[]; loopDir: string }, file: string): string {
  const lines = [`# ${basename(file)} — changelog`, '', `Made by \`isobudget evolve\` (loop ${input.evolveId}, ${input.loopDir}); every step was screened on val against its parent at the same budget and accepted as real_evolution at the loop's corrected level. Not yet gated on test: run \`isobudget gate\`.`, ''];
  for (const entry of acceptedPath(input.lineage, input.final.version)) {
    lines.push(`- v${entry.version} (round ${entry.round}, from v${entry.parent}): ${entry.summary}; n=1 delta ${fmt(entry.n1_delta)} with ${pct(entry.confidence)} ${entry.screening === 'sequential' ? `anytime-valid CS (sequential screen: ${entry.stopped_at ?? '?'} val cases, ${entry.stop_reason ?? '?'})` : 'CI'} [${fmt(entry.ci95?.[0] ?? null)}, ${fmt(entry.ci95?.[1] ?? null)}], tokens/success ×${entry.tokens_per_success_ratio?.toFixed(2) ?? 'n/a'}; screen ${entry.run_dir ?? '?'}, memory ${entry.memory_id ?? '?'}`);
  }
  lines.push(`- v${input.start.version}: the starting skill, ${basename(input.start.file)}`, '');
  return lines.join('\n');
}

/** The experiment YAML with its candidate variant set to the final skill (comments and the rest kept). */
function gateConfigText(configText: string, config: ExperimentConfig, candidateId: string, skillPath: string, evolveId: string): string {
  const doc = parseDocument(configText);
  const baseline = config.variants.baseline;
  doc.setIn(['variants', 'candidate'], doc.createNode({ id: candidateId, model: baseline.model, skill: skillPath, temperature: baseline.temperature }, { flow: true }));
  return `# Written by isobudget evolve (loop ${evolveId}): the candidate is the loop's final incumbent, the baseline the starting skill.\n# Take it to the test split and a human with: isobudget gate <this file>\n${doc.toString({ lineWidth: 0 })}`;
}

function fmt(value: number | null): string {
  return value === null ? 'n/a' : `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(3)}`;
}

function pct(value: number | null): string {
  return value === null ? '?' : `${Number((value * 100).toFixed(2))}%`;
}
