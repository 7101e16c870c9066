/**
 * Gate layer 1: the config loads, the candidate is a skill file with valid front matter (and
 * a valid `policy` block if it declares one), the gate has a test split, and the skill does
 * not quote the test or regression cases (contamination). Pure over loaded inputs.
 */
import type { EvalCase } from '../core/case.js';
import { findContamination, type ContaminationReport } from './contamination.js';
import { checkSkillFile, type SkillFileCheck } from './skill-file.js';
import type { LayerOutcome } from './verdict-layers.js';

export interface FormatInputs {
  /** Problems loading the experiment config(s) (file:line: key: message). */
  configProblems: string[];
  skill: { text: string; file: string } | undefined;
  testCases: readonly EvalCase[] | undefined;
  regressionCases: readonly EvalCase[] | undefined;
  minChars: number;
}

export interface FormatResult {
  outcome: LayerOutcome;
  skill: SkillFileCheck | undefined;
  contamination: ContaminationReport | undefined;
}

export function formatLayer(inputs: FormatInputs): FormatResult {
  const problems = [...inputs.configProblems];
  if (problems.length > 0) return { outcome: { status: 'failed', summary: `config invalid: ${problems[0] ?? ''}${problems.length > 1 ? ` (+${problems.length - 1} more)` : ''}`, details: { config_problems: problems } }, skill: undefined, contamination: undefined };
  if (!inputs.skill) return { outcome: { status: 'failed', summary: 'the candidate variant has no skill file: give `variants.candidate.skill: <file.md>` (a Markdown skill with front matter)', details: {} }, skill: undefined, contamination: undefined };
  const skill = checkSkillFile(inputs.skill.text, inputs.skill.file);
  problems.push(...skill.problems);
  if (!inputs.testCases) problems.push('no test split: the gate decides significance on `datasets.test`');
  const splits = [
    ...(inputs.testCases ? [{ split: 'test', cases: inputs.testCases }] : []),
    ...(inputs.regressionCases ? [{ split: 'regression', cases: inputs.regressionCases }] : []),
  ];
  const contamination = findContamination(inputs.skill.text, splits, inputs.minChars);
  if (contamination.hits.length > 0) {
    const first = contamination.hits.slice(0, 3).map((h) => `${h.split} case ${h.case_id} ${h.field} "${h.text}"`).join('; ');
    problems.push(`contaminated: the skill contains ${contamination.hits.length} test/regression ${contamination.hits.length === 1 ? 'string' : 'strings'} verbatim (${first})`);
  }
  const details = { skill_file: inputs.skill.file, name: skill.name, version: skill.version, policy: skill.policy ?? null, problems, contamination };
  if (problems.length > 0) return { outcome: { status: 'failed', summary: problems.join('; '), details }, skill, contamination };
  return { outcome: { status: 'passed', summary: `skill ${skill.name} version ${skill.version}: front matter valid; no contamination (${contamination.checked} test/regression strings checked, ${contamination.skipped_short} too short to check)`, details }, skill, contamination };
}
