/**
 * The syntax of `scorer.output_field`: a dotted path into an agent's JSON output, where any
 * step may carry one condition on the object it reaches — `item[type=agent_message].text`
 * reads `item.text` only where `item.type` is "agent_message". The condition is what lets
 * one path pick the answer out of a JSON Lines event stream (`codex exec --json`) whose
 * other events have the same keys (reasoning items also carry `item.text`).
 * Config validates with it; scorers/output-field.ts looks values up with it.
 */

export interface FieldStep {
  /** Object key, or a canonical array index ("0", "12"). */
  key: string;
  /** The value reached must be an object whose `key` equals `equals` (compared as text). */
  where: { key: string; equals: string } | undefined;
}

/** One step: a key without `.`, `[`, `]` or `=`, then optionally `[key=value]` (value without `]`). */
const STEP = /([^.[\]=]+)(?:\[([^.[\]=]+)=([^\]]*)\])?/y;

/** The steps of `path`, or undefined when it is not a valid output_field path. */
export function parseOutputField(path: string): FieldStep[] | undefined {
  const steps: FieldStep[] = [];
  let at = 0;
  for (;;) {
    STEP.lastIndex = at;
    const match = STEP.exec(path);
    if (!match) return undefined;
    const [whole, key, whereKey, equals] = match;
    steps.push({ key: key as string, where: whereKey === undefined ? undefined : { key: whereKey, equals: equals ?? '' } });
    at += whole.length;
    if (at === path.length) return steps;
    if (path[at] !== '.') return undefined;
    at += 1;
  }
}
