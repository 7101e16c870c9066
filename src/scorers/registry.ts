/** Maps a normalized `ScorerConfig` (from config/) to its scorer factory. */
import type { ScorerConfig } from '../config/types.js';
import { commandScorer } from './command.js';
import { containsScorer } from './contains.js';
import { exactScorer } from './exact.js';
import { withExpectedPattern } from './expected-pattern.js';
import { jsonScorer } from './json.js';
import { judgeScorer } from './judge/judge-scorer.js';
import { moduleScorer } from './module.js';
import { normalizedScorer } from './normalized.js';
import { numericScorer } from './numeric.js';
import { withOutputField } from './output-field.js';
import { regexScorer } from './regex.js';
import type { Scorer } from './spec.js';

/**
 * Builds the scorer a config names. Throws `IsobudgetError` for configs that can never score
 * (invalid regex or schema, unreadable module) so they fail before the run starts.
 */
export function createScorer(config: ScorerConfig): Scorer {
  // With expected_pattern the wrapper reads `field` and hands the inner scorer the matched value.
  const patterned = config.expectedPattern !== undefined && 'field' in config;
  const scorer = config.expectedPattern === undefined ? scorerOfType(config)
    : withExpectedPattern(scorerOfType(patterned ? { ...config, field: undefined } : config), config.expectedPattern, patterned ? config.field : undefined);
  return config.outputField === undefined ? scorer : withOutputField(scorer, config.outputField);
}

function scorerOfType(config: ScorerConfig): Scorer {
  switch (config.type) {
    case 'exact':
      return exactScorer(withField(config.field));
    case 'normalized':
      return normalizedScorer(withField(config.field));
    case 'contains':
      return containsScorer({ ...withField(config.field), ignoreCase: config.ignoreCase });
    case 'regex':
      return regexScorer(config.pattern === undefined ? { flags: config.flags } : { pattern: config.pattern, flags: config.flags });
    case 'numeric':
      return numericScorer({ tolerance: config.tolerance, relative: config.relative });
    case 'json': {
      const options: { fields?: string[]; schema?: Record<string, unknown> } = {};
      if (config.fields !== undefined) options.fields = config.fields;
      if (config.schema !== undefined) options.schema = config.schema;
      return jsonScorer(options);
    }
    case 'module':
      return moduleScorer({ module: config.module, export: config.export });
    case 'command':
      return commandScorer({ argv: config.argv, timeoutMs: config.timeoutMs });
    case 'judge':
      return judgeScorer(config);
    default: {
      const unknownConfig: never = config;
      throw new Error(`unknown scorer type: ${JSON.stringify(unknownConfig)}`);
    }
  }
}

function withField(field: string | undefined): { field?: string } {
  return field === undefined ? {} : { field };
}
