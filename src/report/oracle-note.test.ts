/** selected@N under the oracle selector is announced as the pass@N upper bound wherever it is shown (issue 24 item 5). */
import { expect, test } from 'vitest';
import { fakeVerdict } from '../memory/test-support/fixtures.js';
import type { VerdictRecord } from '../verdict/record.js';
import { verdictSection } from './html/verdict-section.js';
import { renderMarkdownSummary } from './markdown-summary.js';
import { renderVerdict } from './verdict-text.js';

const withSelector = (selector: string): VerdictRecord => {
  const record = fakeVerdict({ run_id: 'r', verdict: 'real_evolution' });
  return { ...record, bestofn: record.bestofn.map((b) => ({ ...b, selector })), ...(record.bestofn_on ? { bestofn_on: { ...record.bestofn_on, selector } } : {}) };
};

test('oracle: terminal, Markdown and the HTML report say selected@N is the pass@N upper bound', () => {
  const record = withSelector('oracle');
  expect(renderVerdict(record)).toContain('note: selector oracle: selected@8 is pass@8, an upper bound no product can ship');
  expect(renderMarkdownSummary(record)).toContain('> selector oracle: selected@8 is pass@8, an upper bound no product can ship');
  expect(verdictSection(record, undefined)).toContain('Selector oracle: selected@8 is pass@8, an upper bound no product can ship');
});

test('a product selector (majority) gets no such note', () => {
  const record = withSelector('majority');
  expect(renderVerdict(record)).not.toContain('selector oracle');
  expect(renderMarkdownSummary(record)).not.toContain('selector oracle');
  expect(verdictSection(record, undefined)).not.toContain('Selector oracle');
});
