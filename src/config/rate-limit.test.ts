import { describe, expect, test } from 'vitest';
import { IsobudgetError } from '../core/errors.js';
import { parseConfigText } from './load.js';
import { configHash } from '../runner/inputs.js';

const minimal = (extra: string): string => `experiment: demo\nprovider: { preset: sim }\nmodels: { candidate: m }\ndatasets: { val: val.jsonl }\n${extra}`;

describe('rate_limit', () => {
  test('per minute becomes per second; tokens per minute is kept; neither changes the config hash', () => {
    const config = parseConfigText(minimal('rate_limit: { requests_per_minute: 90, tokens_per_minute: 120000 }\n'), '/x/e.yaml');
    expect(config.rateLimit).toBe(1.5);
    expect(config.tokenRateLimit).toBe(120000);
    expect(configHash(config)).toBe(configHash(parseConfigText(minimal(''), '/x/e.yaml')));
  });

  test.each([
    ['rate_limit: { requests_per_second: 2, requests_per_minute: 60 }', 'give requests_per_second or requests_per_minute, not both'],
    ['rate_limit: {}', 'give requests_per_second, requests_per_minute or tokens_per_minute'],
  ])('%s is refused, naming the key', (line, message) => {
    const error = (() => {
      try {
        parseConfigText(minimal(`${line}\n`), '/x/e.yaml');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(IsobudgetError);
    expect((error as IsobudgetError).message).toContain(`rate_limit: ${message}`);
  });
});
