/**
 * `module`: a user-written scorer loaded with dynamic `import()` from an absolute path
 * (.mjs/.js; .ts only when the running Node can load TypeScript). Its export is called as
 * `(output, evalCase) => boolean | number | Score` (or a Promise of one):
 * - boolean → pass/fail;
 * - number in [0, 1] → value, passed when ≥ 0.5 (the midpoint: partial credit counts as a pass
 *   only when it is at least half);
 * - `{ passed, value?, explanation? }` → taken as is (value defaults to 1/0).
 * Anything thrown or returned out of shape becomes a Score with `error`, never a crash.
 */
import { abortable } from '../core/abortable.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { EvalCase } from '../core/case.js';
import { IsobudgetError } from '../core/errors.js';
import { errorMessage, passFail, preview, scoreError } from './score-result.js';
import type { Score, ScoreInput, Scorer } from './spec.js';

export interface ModuleScorerOptions {
  /** Absolute path of the module file. */
  module: string;
  /** Name of the export to call; `default` when omitted. */
  export?: string;
}

/** Pass threshold for numeric returns. */
export const MODULE_PASS_THRESHOLD = 0.5;

const SCORE_SHAPE = z.object({
  passed: z.boolean(),
  value: z.number().min(0).max(1).optional(),
  explanation: z.string().optional(),
});

type ModuleScoreFunction = (output: string, evalCase: EvalCase) => unknown;

export function moduleScorer(options: ModuleScorerOptions): Scorer {
  const exportName = options.export ?? 'default';
  if (!isAbsolute(options.module)) {
    throw new IsobudgetError('scorer_module_path', `scorer module path must be absolute: ${options.module}`, { location: { key: 'scorer.module' } });
  }
  let contentHash: string;
  try {
    // The file's hash goes into the version, so the manifest pins which scorer code ran.
    contentHash = createHash('sha256').update(readFileSync(options.module)).digest('hex').slice(0, 12);
  } catch (thrown) {
    throw new IsobudgetError('scorer_module_not_found', `cannot read scorer module ${options.module}: ${errorMessage(thrown)}`, {
      location: { key: 'scorer.module' },
    });
  }
  let loaded: Promise<ModuleScoreFunction | string> | undefined;
  const load = (): Promise<ModuleScoreFunction | string> => {
    loaded ??= loadFunction(options.module, exportName);
    return loaded;
  };
  return {
    name: 'module',
    version: `1.0.0+${contentHash}`,
    async score({ output, evalCase, signal }: ScoreInput): Promise<Score> {
      const scoreFunction = await load();
      if (typeof scoreFunction === 'string') return scoreError(scoreFunction);
      try {
        const result = await abortable(Promise.resolve(scoreFunction(output, evalCase)), signal);
        return toScore(result, `${options.module}#${exportName}`);
      } catch (thrown) {
        return scoreError(`scorer module ${options.module}#${exportName} threw: ${errorMessage(thrown)}`);
      }
    },
  };
}

/** The export to call, or the reason it cannot be called (returned, not thrown). */
async function loadFunction(modulePath: string, exportName: string): Promise<ModuleScoreFunction | string> {
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(pathToFileURL(modulePath).href)) as Record<string, unknown>;
  } catch (thrown) {
    const hint = modulePath.endsWith('.ts') ? ' (this Node cannot load .ts directly; compile it to .mjs)' : '';
    return `cannot import scorer module ${modulePath}: ${errorMessage(thrown)}${hint}`;
  }
  const candidate = namespace[exportName];
  if (typeof candidate !== 'function') {
    return `scorer module ${modulePath} has no function export '${exportName}' (exports: ${Object.keys(namespace).join(', ') || 'none'})`;
  }
  return candidate as ModuleScoreFunction;
}

function toScore(result: unknown, where: string): Score {
  if (typeof result === 'boolean') return passFail(result);
  if (typeof result === 'number') {
    if (!(result >= 0 && result <= 1)) return scoreError(`scorer module ${where} returned ${result}; numbers must be in [0, 1]`);
    return { passed: result >= MODULE_PASS_THRESHOLD, value: result };
  }
  const parsed = SCORE_SHAPE.safeParse(result);
  if (!parsed.success) {
    return scoreError(`scorer module ${where} returned ${preview(result)}; expected boolean, number in [0, 1], or { passed, value?, explanation? }`);
  }
  const { passed, value, explanation } = parsed.data;
  const score: Score = { passed, value: value ?? (passed ? 1 : 0) };
  if (explanation !== undefined) score.explanation = explanation;
  return score;
}
