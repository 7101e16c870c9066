/** Maps a normalized `SelectorConfig` to its selector. */
import type { SelectorConfig } from '../../config/types.js';
import { createScorer } from '../../scorers/registry.js';
import type { Scorer } from '../../scorers/spec.js';
import { judgeSelector } from './judge.js';
import { majoritySelector } from './majority.js';
import { oracleSelector } from './oracle.js';
import type { Selector } from './spec.js';
import { verifierSelector } from './verifier.js';

export function createSelector(config: SelectorConfig, mainScorer: Scorer): Selector {
  switch (config.type) {
    case 'oracle':
      return oracleSelector(mainScorer);
    case 'majority':
      return majoritySelector();
    case 'judge':
      return judgeSelector({ model: config.model, maxTokens: config.maxTokens });
    case 'verifier':
      return config.scorer === undefined
        ? verifierSelector({ verifier: mainScorer, isMainScorer: true })
        : verifierSelector({ verifier: createScorer(config.scorer), isMainScorer: false });
    default: {
      const unknownConfig: never = config;
      throw new Error(`unknown selector type: ${JSON.stringify(unknownConfig)}`);
    }
  }
}
