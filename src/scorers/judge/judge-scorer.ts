/**
 * The `judge` scorer: a model grades an output against a rubric and, where given, a
 * reference. Each dimension is scored and reported separately; the first (correctness by
 * default) decides pass/fail. An unusable reply or a failed call is a recorded failure.
 */
import { countTokens } from '../../core/tokens.js';
import type { Scorer } from '../spec.js';
import { judgeMessages } from './judge-prompt.js';
import { parseJudgeReply } from './parse-judge-reply.js';

export interface JudgeScorerOptions {
  model: string;
  rubric: string;
  dimensions: readonly string[];
  passThreshold: number;
  maxTokens: number;
}

export function judgeScorer(options: JudgeScorerOptions): Scorer {
  const primary = options.dimensions[0] ?? 'correctness';
  return {
    name: 'judge',
    version: `1.0.0+${options.model}`,
    async score({ output, evalCase, models, path }) {
      if (!models) return { passed: false, value: 0, error: 'the judge scorer needs model access (run it inside isobudget run)' };
      const messages = judgeMessages({ rubric: options.rubric, dimensions: options.dimensions, evalCase, output });
      const reply = await models.complete({ model: options.model, messages, maxTokens: options.maxTokens, path: path ?? 0 }, 'judge');
      if (!reply.ok) {
        return { passed: false, value: 0, error: `judge call failed: ${reply.error}`, judge: { score: 0, dimensions: {}, rationale: '', error: reply.error, tokens: undefined } };
      }
      const parsed = parseJudgeReply(reply.text, options.dimensions);
      if (!parsed.ok) {
        return { passed: false, value: 0, error: parsed.error, judge: { score: 0, dimensions: {}, rationale: '', error: parsed.error, tokens: reply.tokens } };
      }
      const score = parsed.dimensions[primary] ?? 0;
      return {
        passed: score >= options.passThreshold,
        value: score,
        explanation: parsed.rationale || `${primary} ${score.toFixed(2)} (output ${countTokens(output)} tokens)`,
        judge: { score, dimensions: parsed.dimensions, rationale: parsed.rationale, error: undefined, tokens: reply.tokens },
      };
    },
  };
}
