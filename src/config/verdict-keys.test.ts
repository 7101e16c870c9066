/** The config keys issue 11 adds: `gates.max_error_rate` and `scorer.output_field`. */
import { describe, expect, test } from 'vitest';
import { configHash } from '../runner/inputs.js';
import { collectErrors } from '../test-support/config-helpers.js';
import { parseConfigText } from './load.js';

const minimal = (extra: string): string => `experiment: demo\nprovider: { preset: sim }\nmodels: { candidate: m }\ndatasets: { val: val.jsonl }\n${extra}`;

describe('gates.max_error_rate and scorer.output_field', () => {
  test('parsed and normalized; left unset (and out of the config hash) unless given', () => {
    const given = parseConfigText(minimal("gates: { max_error_rate: 0.2 }\nscorer: { type: normalized, field: answer, output_field: 'item[type=agent_message].text' }"), '/x/e.yaml');
    expect(given.gates.maxErrorRate).toBe(0.2);
    expect(given.scorer).toEqual({ type: 'normalized', field: 'answer', outputField: 'item[type=agent_message].text' });
    const plain = parseConfigText(minimal(''), '/x/e.yaml');
    expect(plain.gates.maxErrorRate).toBeUndefined();
    expect(plain.scorer).toEqual({ type: 'normalized' });
    // A config that names neither key hashes as it did before they existed (resume keeps working).
    expect(configHash(plain)).toBe(configHash(parseConfigText(minimal('gates: { confidence: 0.95 }'), '/x/e.yaml')));
  });

  test('bad values are located errors', async () => {
    const rate = await collectErrors(() => parseConfigText(minimal('gates: { max_error_rate: 2 }'), '/x/e.yaml'));
    expect(rate[0]?.message).toBe('must be ≤ 1 (got 2)');
    expect(rate[0]?.location).toMatchObject({ file: '/x/e.yaml', line: 5, key: 'gates.max_error_rate' });
    const path = await collectErrors(() => parseConfigText(minimal('scorer: { type: exact, output_field: "a..b" }'), '/x/e.yaml'));
    expect(path[0]?.message).toContain('must be a dotted path such as `result` or `item[type=agent_message].text`');
    expect(path[0]?.location).toMatchObject({ line: 5, key: 'scorer.output_field' });
  });
});
