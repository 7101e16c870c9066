import { describe, expect, test } from 'vitest';
import type { SequentialRecord } from '../verdict/sequential-record.js';
import { sequentialSection } from './html/sequential-section.js';
import { renderSequential, renderSequentialMarkdown } from './sequential-text.js';

const section: SequentialRecord = {
  method: { interval: 'betting confidence sequence', reference: 'Waudby-Smith & Ramdas (2024) <JRSS-B>', bets: 'predictable plug-in', confidence: 0.95, gain_confidence: 0.85, futility_confidence: 0.65 },
  look_every: 20,
  min_cases: 40,
  order_seed: 7,
  planned_cases: 200,
  stopped_at: 80,
  stop_reason: 'efficacy',
  cases_started: 88,
  n1: { n: 1, delta: 0.2125, cs: [0.066, 0.349], gain_bound: 0.107, futility_bound: 0.262, decided_gain: true, futile: false, decided_worse: false },
  bestofn: null,
  looks: [
    { cases: 40, delta: 0.2, cs: [-0.01, 0.41], gain_bound: 0.05, futility_bound: 0.3, decision: 'continue' },
    { cases: 80, delta: 0.2125, cs: [0.066, 0.349], gain_bound: 0.107, futility_bound: 0.262, decision: 'efficacy' },
  ],
  tokens_spent: 144_315,
  tokens_full_split_estimate: 296_390,
  tokens_fraction: 144_315 / 296_390,
  tokens_unknown_results: 0,
  fixed_sample_intervals_valid: false,
};

describe('sequential text', () => {
  test('terminal: the stop, the anytime-valid CS, both token figures, the in-flight cases and the warning', () => {
    const text = renderSequential(section);
    expect(text).toContain('stopped after 80 of 200 cases (efficacy)');
    expect(text).toContain('n=1 delta +21.3 pts: anytime-valid 95% CS [+6.6 pts, +34.9 pts]; 85% gain bound +10.7 pts');
    expect(text).toContain('tokens: 144,315 spent; the whole split: ~296,390 (estimated from the spend per case so far) — 49%');
    expect(text).toContain('8 cases in flight at the stop');
    expect(text).toContain('not valid under optional stopping');
  });

  test('markdown and HTML say the same, and the HTML escapes what it shows', () => {
    expect(renderSequentialMarkdown(section)).toMatch(/stopped after 80 of 200 cases \(`efficacy`\).*anytime-valid 95% CS \[\+6\.6 pts, \+34\.9 pts\]/);
    const html = sequentialSection(section);
    expect(html).toContain('<h2>Sequential screening</h2>');
    expect(html).toContain('not valid under optional stopping');
    expect(html).toContain('&lt;JRSS-B&gt;');
    expect(html.match(/<tr><td class="num">/g)).toHaveLength(2);
    expect(sequentialSection(undefined)).toBe('');
  });
});
