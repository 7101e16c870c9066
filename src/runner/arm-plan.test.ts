/**
 * What binds an arm (issue 15, item 8): an agent path's turns share ⌊B/n⌋, so B binds late in
 * a path even where the first turn's cap is per_case_max_tokens. The tool-loop example cut
 * 48.5% of its n=4 candidate paths while the run said "B not binding" for every arm.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../config/index.js';
import { createProvider } from '../providers/create-provider.js';
import { agentPathMayExceed, describeArms } from './arm-plan.js';
import { loadRunInputs } from './inputs.js';

const examples = join(import.meta.dirname, '..', '..', 'examples');

async function arms(example: string): Promise<ReturnType<typeof describeArms>> {
  const config = await loadConfig(join(examples, example, 'experiment.yaml'));
  const inputs = await loadRunInputs(config, 'val', false);
  const provider = createProvider({ protocol: 'sim', baseUrl: 'sim://local', apiKey: undefined, apiKeyEnv: undefined, timeoutMs: 1000, headers: {} }, { simSeed: 7 });
  try {
    return describeArms(inputs, provider);
  } finally {
    await provider.close?.();
  }
}

describe('describeArms', () => {
  test('tool-loop (agent, B = 4000, cap 256/turn, 8 turns): B binds every arm, no "not binding" warning', async () => {
    const plan = await arms('tool-loop');
    expect(plan.arms.map((a) => [a.arm, a.binding])).toEqual([
      ['baseline_single', true], ['candidate_single', true], ['baseline_best_of_4', true], ['candidate_best_of_4', true],
    ]);
    expect(plan.warnings.filter((w) => /not binding/.test(w))).toEqual([]);
  });

  test('date-parser (chat): unchanged — B does not bind at n=1, binds at n=8', async () => {
    const plan = await arms('date-parser');
    expect(plan.arms.map((a) => a.binding)).toEqual([false, false, true, true]);
    expect(plan.warnings.filter((w) => /not binding/.test(w))).toHaveLength(2);
  });

  test('the agent bound: a path of T full turns bills at least T·prompt + cap·T(T+1)/2', () => {
    // 8 turns, prompt 300, cap 256: 2,400 + 9,216 = 11,616 tokens.
    expect(agentPathMayExceed(11_615, 300, 256, 8)).toBe(true);
    expect(agentPathMayExceed(11_616, 300, 256, 8)).toBe(false);
    // One turn is one call: the chat rule, B binds when the share leaves less than the cap.
    expect(agentPathMayExceed(555, 300, 256, 1)).toBe(true);
    expect(agentPathMayExceed(556, 300, 256, 1)).toBe(false);
  });
});
