/**
 * Configs that compare nothing, pure (issue 24 item 5): warnings `validate` and `run` print,
 * errors under `--strict`.
 *
 * - Baseline and candidate resolve to the same prompt, model and temperature (the seed's YAML
 *   has no `variants:`, so both default to `models.candidate` with no skill): every arm is the
 *   same agent, and any "gain" is noise.
 * - A command agent whose argv and env carry neither `{{system_prompt}}` nor
 *   `{{system_prompt_file}}` while the variants differ only in their skill: the skill never
 *   reaches the agent, so both arms run the same agent (the agent may still read
 *   ISOBUDGET_SYSTEM_PROMPT_FILE itself — the warning says so).
 */
import type { ExperimentConfig } from './types.js';

export interface ComparisonProblem {
  code: 'same_variants' | 'skill_not_passed';
  message: string;
  /** Config key the fix goes in (dotted). */
  key: string;
  hint: string;
}

const SKILL_PLACEHOLDER = /\{\{\s*system_prompt(?:_file)?\s*\}\}/;

export function comparisonProblems(config: ExperimentConfig): ComparisonProblem[] {
  const { baseline, candidate } = config.variants;
  const sameModel = baseline.model === candidate.model && baseline.temperature === candidate.temperature;
  const samePrompt = baseline.systemPrompt === candidate.systemPrompt;
  if (sameModel && samePrompt) {
    return [{
      code: 'same_variants',
      message: `baseline (${baseline.id}) and candidate (${candidate.id}) resolve to the same prompt, model (${candidate.model}) and temperature (${candidate.temperature}): the run compares the agent with itself`,
      key: 'variants',
      hint: 'give the candidate its own skill (variants.candidate.skill) or model (variants.candidate.model)',
    }];
  }
  const executor = config.executor;
  if (executor.type === 'command' && sameModel && !samePrompt) {
    const carried = [...executor.argv, ...Object.values(executor.env)].some((text) => SKILL_PLACEHOLDER.test(text));
    if (!carried) {
      return [{
        code: 'skill_not_passed',
        message: 'the variants differ only in their skill, but the command agent\'s argv and env carry no {{system_prompt}} or {{system_prompt_file}}: unless the agent reads ISOBUDGET_SYSTEM_PROMPT_FILE itself, both arms run the same agent',
        key: 'executor.argv',
        hint: 'pass the skill in argv, e.g. claude … --append-system-prompt "{{system_prompt}}", or codex exec … "{{system_prompt}}\\n\\n{{input}}"',
      }];
    }
  }
  return [];
}
