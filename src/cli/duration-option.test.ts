import { expect, test } from 'vitest';
import { IsobudgetError } from '../core/errors.js';
import { durationOption } from './duration-option.js';

test('durations: units, bare seconds, and refusals that say what is expected', () => {
  expect(durationOption('idle-timeout', undefined)).toBeUndefined();
  expect(durationOption('idle-timeout', '500ms')).toBe(500);
  expect(durationOption('idle-timeout', '30')).toBe(30_000);
  expect(durationOption('idle-timeout', '1.5s')).toBe(1_500);
  expect(durationOption('idle-timeout', '10m')).toBe(600_000);
  expect(durationOption('idle-timeout', '1h')).toBe(3_600_000);
  for (const bad of ['0', '-5s', 'soon', '10 minutes', '30d', '']) expect(() => durationOption('idle-timeout', bad)).toThrow(IsobudgetError);
  expect(() => durationOption('connect-timeout', 'x')).toThrow("--connect-timeout must be a duration like 500ms, 30s, 10m or 1h");
});
