import { expect, test } from 'vitest';
import { parseJudgeReply } from './parse-judge-reply.js';

const DIMS = ['correctness', 'conciseness', 'format', 'tone', 'budget_friendliness'];

test.each([
  { reply: '{"correctness": 0.8, "conciseness": 0.4, "format": 1, "tone": 0.9, "budget_friendliness": 0.5, "rationale": "ok"}', correctness: 0.8, conciseness: 0.4 },
  { reply: '```json\n{"correctness": 9, "conciseness": 3}\n```', correctness: 0.9, conciseness: 0.3 },
  { reply: '{"score": 0.7, "reason": "fine"}', correctness: 0.7, conciseness: undefined },
  { reply: 'Correctness: 8/10\nConciseness: 2/10\nReason: long', correctness: 0.8, conciseness: 0.2 },
  { reply: 'Score: 7\nReason: mostly right', correctness: 0.7, conciseness: undefined },
  { reply: 'PASS', correctness: 1, conciseness: undefined },
  { reply: 'FAIL: wrong date', correctness: 0, conciseness: undefined },
  { reply: '{"correctness": 85}', correctness: 0.85, conciseness: undefined },
])('$reply → correctness $correctness', ({ reply, correctness, conciseness }) => {
  const parsed = parseJudgeReply(reply, DIMS);
  expect(parsed.ok).toBe(true);
  if (!parsed.ok) return;
  expect(parsed.dimensions.correctness).toBeCloseTo(correctness, 12);
  if (conciseness === undefined) expect(parsed.dimensions.conciseness).toBeUndefined();
  else expect(parsed.dimensions.conciseness).toBeCloseTo(conciseness, 12);
});

test.each(['I really liked this answer!', '{"verdict": "great"}', '', '{"correctness": -1}', 'Score: 1000'])('unusable reply %j is an error, not a guess', (reply) => {
  const parsed = parseJudgeReply(reply, DIMS);
  expect(parsed.ok).toBe(false);
  if (!parsed.ok) expect(parsed.error).toContain('no correctness score');
});
