/**
 * A finding of one fake-evolution detector (DESIGN §6), and where it routes: the seed's
 * dispositions — systemic → skill/prompt update; sporadic → memory counter-example;
 * capability gap → tool; regression → rollback; leakage → "Best-of-N only".
 */
export type Detector = 'length_gaming' | 'bestofn_posing' | 'tool_redundancy' | 'eval_drift' | 'hidden_regression' | 'bestofn_streak';

export type Cause = 'systemic' | 'sporadic' | 'capability_gap' | 'regression' | 'leakage' | 'eval_drift';

export type Evidence = Record<string, number | string | boolean | null | readonly [number, number]>;

export interface Finding {
  detector: Detector;
  /** False when the detector ran and found nothing, or could not run (see `applicable`). */
  flagged: boolean;
  /** False when the run has no data for this detector (e.g. no judge scores, no tool calls). */
  applicable: boolean;
  summary: string;
  evidence: Evidence;
  cause: Cause | null;
  action: string | null;
}

export const ACTIONS: Record<Cause, string> = {
  systemic: 'update the skill/prompt (and the rubric), then re-run at the same budget',
  sporadic: 'write the failing cases to memory as counter-examples',
  capability_gap: 'add or fix a tool; a prompt cannot supply a missing capability',
  regression: 'roll back; do not promote',
  leakage: 'mark as "Best-of-N only": an observation, not a skill',
  eval_drift: 'refresh val/test with recent production failures before selecting again',
};

export function finding(detector: Detector, flagged: boolean, summary: string, evidence: Evidence, cause: Cause | null): Finding {
  return { detector, flagged, applicable: true, summary, evidence: defined(evidence), cause: flagged ? cause : null, action: flagged && cause ? ACTIONS[cause] : null };
}

/** Evidence keeps no NaN: an undefined number or interval (too few cases) is null, shown as "—". */
function defined(evidence: Evidence): Evidence {
  const out: Evidence = {};
  for (const [key, value] of Object.entries(evidence)) {
    const undefinedValue = (typeof value === 'number' && Number.isNaN(value)) || (Array.isArray(value) && value.some((v) => Number.isNaN(v)));
    out[key] = undefinedValue ? null : value;
  }
  return out;
}

export function notApplicable(detector: Detector, why: string): Finding {
  return { detector, flagged: false, applicable: false, summary: why, evidence: {}, cause: null, action: null };
}
