import { describe, expect, test } from 'vitest';
import { extractLastNumber, extractNumbers, parseNumber } from './extract-number.js';

describe('extractLastNumber', () => {
  test.each([
    ['The answer is 42.', 42],
    ['Total: 1,234.5 dollars', 1234.5],
    ['1,234,567', 1234567],
    ['It dropped to -3', -3],
    ['x = -3.25', -3.25],
    ['answer:-7', -7],
    ['tiny: 1e-3', 0.001],
    ['big: 6.02E23', 6.02e23],
    ['.5 of it', 0.5],
    ['\u22122 degrees', -2],
    ['first 10, then 20, finally 30', 30],
    ['on 2020-01-05', 5],
    ['x-3', 3],
    ['1,2,3', 3],
    ['答案是42', 42],
    ['+8 points', 8],
    ['no digits here', undefined],
    ['', undefined],
  ])('%j → %s', (text, expected) => {
    expect(extractLastNumber(text)).toBe(expected);
  });

  test('every number, in order', () => {
    expect(extractNumbers('a 1, b -2.5, c 3e2')).toEqual([1, -2.5, 300]);
  });
});

describe('parseNumber', () => {
  test.each([
    ['42', 42],
    [' 1,234.5 ', 1234.5],
    ['\u22121', -1],
    ['1e-3', 0.001],
    ['4.', 4],
    ['forty', undefined],
    ['1 2', undefined],
    ['', undefined],
    ['1e999', undefined],
  ])('%j → %s', (text, expected) => {
    expect(parseNumber(text)).toBe(expected);
  });
});
