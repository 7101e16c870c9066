/**
 * An approved skill as a `SKILL.md` an agent can load: the skill's own front matter (name,
 * description, version and any other keys it had), plus an `isobudget` block with its
 * provenance — run ids, verdict, budget, n, base URL, model, same-budget numbers and who
 * approved it. Deterministic (no export timestamp), so re-exporting unchanged skills
 * rewrites nothing. Pure.
 */
import { parseFrontMatter, renderFrontMatter } from '../memory/front-matter.js';
import type { MemoryRecord } from '../memory/record.js';

/** The folder name under the skills directory (`date-parser/SKILL.md`). */
export function skillFolderName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'skill';
}

export function renderSkillMarkdown(record: MemoryRecord): string {
  if (!record.skill) throw new Error(`${record.memory_id} has no skill text`);
  const doc = parseFrontMatter(record.skill.text);
  const { name: _n, description: _d, version, isobudget: _i, ...rest } = doc.data ?? {};
  const approval = record.approvals[record.approvals.length - 1];
  const front: Record<string, unknown> = {
    name: record.skill.name,
    description: record.skill.description,
    version: version ?? record.skill.version,
    ...rest,
    isobudget: {
      memory_id: record.memory_id,
      memory_version: record.version,
      candidate_id: record.candidate_id,
      baseline_id: record.baseline_id,
      verdict: record.verdict,
      source_run: record.source_run,
      run_ids: record.run_ids,
      budget: record.budget,
      n: record.n,
      base_url: record.base_url,
      model: record.model,
      same_budget_delta: record.same_budget_delta,
      same_budget_ci95: record.same_budget_ci95,
      bestofn_off_delta: record.bestofn_off_delta,
      tokens_per_success_delta: record.tokens_per_success_delta,
      approved_by: approval?.reviewer ?? null,
      approved_at: approval?.at ?? null,
      gate_id: approval?.gate_id ?? null,
    },
  };
  return renderFrontMatter(front, doc.body);
}
