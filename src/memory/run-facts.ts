/**
 * A run's verdict + manifest → the facts memory needs, in the seed's vocabulary. Pure, so
 * ingest rules can be tested on hand-written facts without running anything.
 */
import type { Manifest } from '../ledger/manifest.js';
import type { Interval, VerdictName, VerdictRecord } from '../verdict/record.js';
import { parseFrontMatter, stringField } from './front-matter.js';
import { slugFor } from './ids.js';
import type { SkillText } from './record.js';

export interface RunFacts {
  run_id: string;
  experiment: string;
  split: string;
  candidate_id: string;
  baseline_id: string;
  base_url: string;
  /** The candidate variant's model. */
  model: string;
  budget: number;
  verdict: VerdictName;
  reason: string;
  same_budget_delta: number | null;
  ci95: Interval | null;
  cases: number | null;
  bestofn_off_delta: number | null;
  tokens_per_success_delta: number | null;
  bestofn_ratio: number | null;
  /** The largest N run (the seed's n=8), when Best-of-N was on. */
  bestofn_n: number | null;
  bestofn_delta: number | null;
  skill: SkillText | null;
  /** Flagged attribution findings of the verdict, `detector: summary`. */
  attribution: string[];
  /** When the verdict was decided. */
  at: string;
}

/** Name/description/version of a skill text; a prompt without front matter is named after its variant. */
export function describeSkill(text: string, file: string | null, variantId: string, baseline: { id: string; text: string } | null): SkillText {
  const front = parseFrontMatter(text).data;
  return {
    name: stringField(front, 'name') ?? slugFor(variantId),
    description: stringField(front, 'description') ?? '',
    version: stringField(front, 'version') ?? variantId,
    text,
    file,
    baseline_id: baseline?.id ?? null,
    baseline_text: baseline?.text ?? null,
  };
}

export function factsFromRun(verdict: VerdictRecord, manifest: Manifest): RunFacts {
  const { candidate, baseline } = manifest.config.variants;
  const same = verdict.same_budget;
  const on = verdict.bestofn_on;
  return {
    run_id: verdict.run_id,
    experiment: verdict.experiment,
    split: verdict.split,
    candidate_id: verdict.candidate_id,
    baseline_id: verdict.baseline_id,
    base_url: manifest.config.provider.baseUrl,
    model: candidate.model,
    budget: same?.budget ?? manifest.config.budget.totalTokensPerCase,
    verdict: verdict.verdict,
    reason: verdict.reason,
    same_budget_delta: same?.delta ?? null,
    ci95: same?.ci95 ?? null,
    cases: same?.cases ?? null,
    bestofn_off_delta: verdict.bestofn_off.delta,
    tokens_per_success_delta: same?.tokens_per_success_growth == null ? null : same.tokens_per_success_growth - 1,
    bestofn_ratio: on?.bestofn_ratio ?? null,
    bestofn_n: on?.n ?? null,
    bestofn_delta: on?.delta ?? null,
    skill: candidate.systemPrompt === '' ? null : describeSkill(candidate.systemPrompt, candidate.skillFile ?? null, candidate.id, { id: baseline.id, text: baseline.systemPrompt }),
    attribution: attributionFlags(verdict),
    at: verdict.created_at,
  };
}

/** Flagged attribution findings (DESIGN §6) as `detector: summary` lines for the review card. */
export function attributionFlags(verdict: VerdictRecord): string[] {
  return (verdict.attribution?.findings ?? []).filter((f) => f.flagged).map((f) => `${f.detector}: ${f.summary}`);
}
