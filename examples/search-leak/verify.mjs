/**
 * Verifier for the search-leak example: does the answer meet the case's constraints?
 * Many answers are valid, so there is no single expected string — the constraints are the
 * expected value: { digits, digit_sum, divisible_by }.
 *
 * Default export: (output, case) => { passed, score }. `case` is the eval case; its
 * `expected` (or, failing that, `metadata`) carries the constraints.
 */

function constraintsOf(evalCase) {
  const source = evalCase && typeof evalCase.expected === 'object' && evalCase.expected !== null ? evalCase.expected : evalCase?.metadata ?? {};
  const digits = Number(source.digits);
  const digitSum = Number(source.digit_sum);
  const divisor = Number(source.divisible_by);
  if (![digits, digitSum, divisor].every(Number.isInteger) || divisor < 1) {
    throw new Error(`search-leak verify: case ${evalCase?.id ?? '?'} lacks { digits, digit_sum, divisible_by }`);
  }
  return { digits, digitSum, divisor };
}

/** The answer is the last integer in the output ("Answer: 573" and "573" both work). */
function answerOf(output) {
  const numbers = String(output ?? '').match(/-?\d+/g);
  return numbers ? numbers[numbers.length - 1] : undefined;
}

export default function verify(output, evalCase) {
  const { digits, digitSum, divisor } = constraintsOf(evalCase);
  const answer = answerOf(output);
  if (answer === undefined || answer.startsWith('-')) return { passed: false, score: 0 };
  const value = Number(answer);
  const sum = [...answer].reduce((s, d) => s + Number(d), 0);
  const checks = [answer.length === digits && answer[0] !== '0', sum === digitSum, value % divisor === 0];
  const passed = checks.every(Boolean);
  return { passed, score: checks.filter(Boolean).length / checks.length };
}
