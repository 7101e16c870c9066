/**
 * A command agent's calls leave through the gateway clamped to what its path's ⌊B/n⌋ key has
 * left, never at per_case_max_tokens: the not-binding note says the cap they really get
 * (issue 25, item 6; it said "every path is capped at per_case_max_tokens=4096" while
 * Claude's calls went out with max_tokens 32000, clamped by the gateway).
 */
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadConfig } from '../config/index.js';
import { createProvider } from '../providers/create-provider.js';
import { describeArms } from './arm-plan.js';
import { loadRunInputs } from './inputs.js';

test('the note for a command agent names the gateway clamp and the key share, not per_case_max_tokens', async () => {
  const config = await loadConfig(join(import.meta.dirname, '..', '..', 'examples', 'date-parser', 'experiment.yaml'));
  config.executor = { type: 'command', argv: ['node', '{{input}}'], fixtureDir: undefined, timeoutMs: 1000, output: { kind: 'stdout' }, env: {}, inheritEnv: [], keepWorkdirs: false, gateway: { upstream: undefined, apiKeyEnv: undefined, upstreamAuth: 'auto' } };
  const inputs = await loadRunInputs(config, 'val', false);
  const provider = createProvider({ protocol: 'sim', baseUrl: 'sim://local', apiKey: undefined, apiKeyEnv: undefined, timeoutMs: 1000, headers: {} }, { simSeed: 7 });
  try {
    const note = describeArms(inputs, provider).warnings.find((w) => w.includes('baseline_single'));
    expect(note).toContain('max_tokens clamped to what is left of the path\'s ⌊B/n⌋=3000-token key');
    expect(note).not.toContain('every path is capped at per_case_max_tokens');
  } finally {
    await provider.close?.();
  }
});
