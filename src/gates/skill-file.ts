/**
 * Gate layer 1, the skill file's format: Markdown with front matter `name`, `description`
 * and `version`. A skill may also declare the budget policy it wants to run with in
 * production (`policy: { best_of_n, retries, max_tokens, budget }`): that is how a candidate
 * asks for more Best-of-N, retries or tokens — and why it then needs a human. Pure.
 */
import { z } from 'zod';
import { parseFrontMatter } from '../memory/front-matter.js';

export const declaredPolicySchema = z.strictObject({
  best_of_n: z.int().positive().optional().meta({ description: 'Paths per request in production (1 = Best-of-N off).' }),
  retries: z.int().positive().optional().meta({ description: 'Attempts per task including the first (1 = no retry).' }),
  max_tokens: z.int().positive().optional().meta({ description: 'Per-path output cap (tokens).' }),
  budget: z.int().positive().optional().meta({ description: 'Tokens per case, every call and path (B).' }),
});

export type DeclaredPolicy = z.infer<typeof declaredPolicySchema>;

const VERSION_ERROR = 'must be a positive integer or a semantic version, e.g. 3 or 1.2.0';

const skillFrontSchema = z.looseObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, { error: 'must be lowercase letters, digits and hyphens (at most 64), e.g. date-parser' }),
  description: z.string().trim().min(1, { error: 'must say what the skill does and when to use it' }),
  version: z.union([z.int().positive({ error: VERSION_ERROR }), z.string().regex(/^\d+(\.\d+){0,2}([-+][0-9A-Za-z.-]+)?$/, { error: VERSION_ERROR })], { error: VERSION_ERROR }),
  policy: declaredPolicySchema.optional(),
  level: z.enum(['note', 'rule']).optional(),
});

export interface SkillFileCheck {
  problems: string[];
  name: string | undefined;
  version: string | undefined;
  policy: DeclaredPolicy | undefined;
  level: 'note' | 'rule';
}

export function checkSkillFile(text: string, file: string): SkillFileCheck {
  const empty = { name: undefined, version: undefined, policy: undefined, level: 'note' as const };
  const doc = parseFrontMatter(text);
  if (doc.problem) return { ...empty, problems: [`${file}:1: ${doc.problem}`] };
  if (!doc.data) return { ...empty, problems: [`${file}:1: no front matter: start the file with a \`---\` block holding name, description and version`] };
  const problems: string[] = [];
  const parsed = skillFrontSchema.safeParse(doc.data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.');
      const missing = issue.code === 'invalid_type' && key !== '' && key.split('.').reduce<unknown>((value, part) => (value as Record<string, unknown> | undefined)?.[part], doc.data) === undefined;
      problems.push(`${file}: front matter \`${key}\`: ${missing ? 'missing (required)' : issue.message}`);
    }
  }
  if (doc.body.trim() === '') problems.push(`${file}:${doc.bodyLine}: the skill has no instructions after its front matter`);
  if (!parsed.success) return { ...empty, problems };
  return { problems, name: parsed.data.name, version: String(parsed.data.version), policy: parsed.data.policy, level: parsed.data.level ?? 'note' };
}

/** The `policy:` block of any skill text (the baseline's too), or undefined when absent or malformed. */
export function declaredPolicyOf(text: string): DeclaredPolicy | undefined {
  const parsed = declaredPolicySchema.safeParse(parseFrontMatter(text).data?.['policy']);
  return parsed.success ? parsed.data : undefined;
}
