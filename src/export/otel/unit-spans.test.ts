import { expect, test } from 'vitest';
import { LEDGER_SCHEMA_VERSION, type CallRecord } from '../../ledger/records.js';
import { unitTrace } from './unit-spans.js';

const call: CallRecord = {
  schema_version: LEDGER_SCHEMA_VERSION, kind: 'call', run_id: 'pf-1', case_id: 'c1', arm: 'candidate_single', n: 1, path: 0, paths: 1, epoch: 1, split: 'val',
  model: 'gpt-4o', base_url: 'https://api.openai.com/v1', protocol: 'openai-chat', prompt_tokens: undefined, completion_tokens: undefined, total_tokens: undefined,
  cached_tokens: undefined, reasoning_tokens: undefined, usage_missing: true, cost_usd: null, max_tokens: 0, finish_reason: 'error', finish_reason_raw: undefined,
  latency_ms: 120, attempt: 2, status: 503, role: 'generate', error: 'upstream said: Authorization: Bearer sk-live-123', retried: true, note: undefined, ts: '2026-12-01T10:00:00.120Z',
};

test('unknown usage and unknown B stay absent (never 0); error text never leaves, only its class', () => {
  const trace = unitTrace({ manifest: { run_id: 'pf-1', experiment: 'e', datasets: {}, split: 'val', config: { budget: { totalTokensPerCase: null as unknown as number, perCaseMaxTokens: 0, bestOfN: [1], includeJudge: false }, variants: { baseline: { id: 'v2', model: 'm', systemPrompt: '', skillFile: undefined, temperature: 0 }, candidate: { id: 'v3', model: 'm', systemPrompt: '', skillFile: undefined, temperature: 0 } } } }, result: undefined, calls: [call], includeContent: true });
  const span = trace.calls[0];
  expect(span?.attributes).not.toHaveProperty('gen_ai.usage.input_tokens');
  expect(span?.attributes).not.toHaveProperty('gen_ai.usage.output_tokens');
  expect(span?.attributes).not.toHaveProperty('gen_ai.request.max_tokens');
  expect(trace.shared).not.toHaveProperty('isobudget.budget');
  expect(trace.shared['langfuse.experiment.description']).toContain('B unknown');
  expect(span?.attributes).toMatchObject({ 'isobudget.usage_missing': true, 'error.type': '503', 'gen_ai.provider.name': 'openai', 'server.address': 'api.openai.com', 'isobudget.attempt': 2 });
  expect(span?.error).toBe(true);
  expect(span?.startMs).toBe(Date.parse(call.ts) - 120);
  expect(JSON.stringify(trace)).not.toContain('sk-live-123');
  expect(trace.root.attributes['isobudget.variant_id']).toBe('v3');
});
