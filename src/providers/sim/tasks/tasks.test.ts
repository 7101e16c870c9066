import { describe, expect, it } from 'vitest';
import { simulate } from '../engine.js';
import { readStyleRules } from '../style-rules.js';
import { parseDigitSearch, searchSpace } from './digit-search.js';
import { evaluate, tokenize } from './expression.js';
import { readJudgeSections } from './judge-task.js';

function reply(system: string, user: string, options: { model?: string; seed?: number; temperature?: number } = {}): string {
  const messages = [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user' as const, content: user }];
  return simulate({ model: options.model ?? 'sim-small', messages, maxTokens: 2000, temperature: options.temperature ?? 0.2, n: 1 }, { seed: options.seed ?? 0 }).choices[0]?.text ?? '';
}

describe('style rules', () => {
  it('reads terse, thorough and diversify instructions', () => {
    expect(readStyleRules('Reply with the number only.')).toEqual({ terse: true, thorough: false, diversify: false });
    expect(readStyleRules('Explain your reasoning thoroughly.')).toEqual({ terse: false, thorough: true, diversify: false });
    expect(readStyleRules('- Diversify: each attempt should try a different candidate.').diversify).toBe(true);
    expect(readStyleRules('Keep the reply short.')).toEqual({ terse: false, thorough: false, diversify: false });
  });
});

describe('arithmetic', () => {
  it('evaluates with precedence, and models the classic mistakes', () => {
    const tokens = tokenize('47 + 38 * 3') ?? [];
    expect(evaluate(tokens, 'standard')?.value).toBe(161);
    expect(evaluate(tokens, 'left-to-right')?.value).toBe(255);
    expect(evaluate(tokenize('(12 + 7) * 4') ?? [], 'no-parens')?.value).toBe(40);
    expect(evaluate(tokenize('(12 + 7) * 4') ?? [], 'standard')?.steps).toEqual([
      { left: 12, op: '+', right: 7, result: 19 },
      { left: 19, op: '*', right: 4, result: 76 },
    ]);
    expect(tokenize('2 + banana')).toBeUndefined();
  });

  it('answers in the format the skill asks for', () => {
    expect(reply('Reply with the final answer only, in double square brackets, like [[42]].', 'Compute 2 + 3.')).toBe('[[5]]');
    expect(reply('Give the final answer in double square brackets, like [[42]].', 'What is 2 + 3?')).toBe('2 + 3 = 5. [[5]]');
    expect(reply('', 'Evaluate: 2 + 3')).toBe('2 + 3 = 5. Answer: 5');
  });

  it('makes the thorough answer long but keeps the same answer', () => {
    for (let seed = 0; seed < 20; seed += 1) {
      const short = reply('Give the final answer in double square brackets, like [[42]].', 'Compute 47 + 38 * 3.', { seed });
      const long = reply('Explain your reasoning thoroughly. Give the final answer in double square brackets, like [[42]].', 'Compute 47 + 38 * 3.', { seed });
      expect(long.length).toBeGreaterThan(10 * short.length);
      expect(/\[\[(-?\d+)\]\]/.exec(long)?.[1]).toBe(/\[\[(-?\d+)\]\]/.exec(short)?.[1]);
    }
  });
});

describe('digit search', () => {
  it('parses both phrasings and enumerates the answers', () => {
    expect(parseDigitSearch('Find a three-digit number whose digits sum to 15 and that is divisible by 7.')).toEqual({ digits: 3, digitSum: 15, divisor: 7 });
    expect(parseDigitSearch('Give a 4-digit number with digit sum 20 that is a multiple of 13.')).toEqual({ digits: 4, digitSum: 20, divisor: 13 });
    const space = searchSpace({ digits: 3, digitSum: 15, divisor: 7 });
    expect(space.valid).toContain(168);
    expect(space.valid.every((v) => v % 7 === 0)).toBe(true);
    expect(space.nearMisses.every((v) => v % 7 !== 0)).toBe(true);
  });

  it('answers a valid number about as often as its profile says', () => {
    let right = 0;
    for (let seed = 0; seed < 400; seed += 1) {
      const answer = Number(reply('Reply with the number only.', 'Find a four-digit number whose digits sum to 20 and that is divisible by 13.', { seed }));
      if (answer % 13 === 0) right += 1;
    }
    expect(right / 400).toBeGreaterThan(0.42);
    expect(right / 400).toBeLessThan(0.58);
  });
});

describe('judge', () => {
  const prompt = (response: string) => `Rate the response from 1 to 10.\nQuestion: Compute 2 + 3.\nReference: [[5]]\nResponse: ${response}`;

  it('reads labeled and tagged sections', () => {
    expect(readJudgeSections('Question: q\nReference: 5\nResponse: It is 5.\nAnswer: 5')).toEqual({ response: 'It is 5.\nAnswer: 5', reference: '5' });
    expect(readJudgeSections('<reference>5</reference><response>five</response>')).toEqual({ response: 'five', reference: '5' });
    expect(readJudgeSections('no sections here')).toBeUndefined();
  });

  it('scores correct answers above wrong ones and likes length', () => {
    const scoreOf = (text: string) => Number(/Score: (\d+)/.exec(text)?.[1]);
    const right = scoreOf(reply('', prompt('[[5]]'), { model: 'sim-judge', seed: 1 }));
    const wrong = scoreOf(reply('', prompt('[[6]]'), { model: 'sim-judge', seed: 1 }));
    const padded = scoreOf(reply('', prompt(`${'Let me explain every step of this in detail. '.repeat(30)}[[5]]`), { model: 'sim-judge', seed: 1 }));
    expect(right).toBeGreaterThan(wrong);
    expect(padded).toBeGreaterThan(right);
  });

  it('answers in JSON or PASS/FAIL when asked to', () => {
    const json = JSON.parse(reply('Grade the response. Reply in JSON.', 'Reference: 5\nResponse: 5', { model: 'sim-judge' })) as { score: number; reason: string };
    expect(json.score).toBeGreaterThan(5);
    expect(reply('Grade the response: answer PASS or FAIL.', 'Reference: 5\nResponse: 7', { model: 'sim-judge', seed: 2 })).toMatch(/^(PASS|FAIL)$/);
  });
});

describe('fallback', () => {
  it('says hello to a hello-world call', () => {
    expect(reply('', 'Say hello in one short sentence.', { model: 'sim-large' })).toBe('Hello, world! (isobudget simulator, model sim-large)');
    expect(reply('', 'Write a haiku about budgets.')).toContain('isobudget simulator');
  });
});
