import { describe, expect, test } from 'vitest';
import { lastNonEmptyLine, normalizeText } from './normalize-text.js';

describe('normalizeText', () => {
  test.each([
    ['  Paris  ', 'paris'],
    ['"Paris".', 'paris'],
    ['`Paris`', 'paris'],
    ['```Paris```', 'paris'],
    ["'new   york'", 'new york'],
    ['\u201cParis\u201d', 'paris'],
    ['New\n\tYork.', 'new york'],
    ['\uff14\uff12', '42'],
    ['答案。', '答案'],
    ['CAFÉ', 'café'],
    ['3.0', '3.0'],
    ['"', '"'],
    ['', ''],
    ['  \n ', ''],
  ])('%j → %j', (input, expected) => {
    expect(normalizeText(input)).toBe(expected);
  });
});

describe('lastNonEmptyLine', () => {
  test.each([
    ['a\nb\n\n  \n', 'b'],
    ['only', 'only'],
    ['x\r\ny\r\n', 'y'],
    ['\n \n', undefined],
    ['', undefined],
  ])('%j → %j', (input, expected) => {
    expect(lastNonEmptyLine(input)).toBe(expected);
  });
});
