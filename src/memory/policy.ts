/**
 * The knobs of forgetting and conflict handling. Stored in the memory store's settings so
 * every command on one store applies the same schedule.
 */
export interface MemoryPolicy {
  /** A record not reconfirmed loses half its weight every this many days. */
  halfLifeDays: number;
  /** Below this effective weight a record is no longer retrieved (`memory decay --apply` retires it). */
  retireBelow: number;
  /** A contradiction that pushes the weight below this freezes the record. */
  freezeBelow: number;
  /** Factor applied to the weight by one contradicting same-budget run. */
  contradictionPenalty: number;
  /** Starting weight of a `.learnings/` note: low bar, low weight (seed §5, tier 1). */
  learningWeight: number;
}

export const DEFAULT_MEMORY_POLICY: MemoryPolicy = {
  halfLifeDays: 30,
  retireBelow: 0.05,
  freezeBelow: 0.3,
  contradictionPenalty: 0.5,
  learningWeight: 0.5,
};

/** Settings as stored (`key → text`) → a policy; unknown or malformed values fall back to defaults. */
export function policyFromSettings(settings: Record<string, string>): MemoryPolicy {
  const read = (key: keyof MemoryPolicy, valid: (value: number) => boolean): number => {
    const raw = settings[key];
    const value = raw === undefined ? Number.NaN : Number(raw);
    return Number.isFinite(value) && valid(value) ? value : DEFAULT_MEMORY_POLICY[key];
  };
  const fraction = (value: number): boolean => value >= 0 && value <= 1;
  return {
    halfLifeDays: read('halfLifeDays', (v) => v > 0),
    retireBelow: read('retireBelow', fraction),
    freezeBelow: read('freezeBelow', fraction),
    contradictionPenalty: read('contradictionPenalty', fraction),
    learningWeight: read('learningWeight', fraction),
  };
}
