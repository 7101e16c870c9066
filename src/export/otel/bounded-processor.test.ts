import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { expect, test } from 'vitest';
import { BoundedProcessor } from './bounded-processor.js';

const span = {} as ReadableSpan;

function exporter(answer: (spans: ReadableSpan[], done: (result: ExportResult) => void) => void): SpanExporter & { batches: number[] } {
  const batches: number[] = [];
  return { batches, export: (spans, done) => { batches.push(spans.length); answer(spans, done); }, shutdown: async () => {} };
}

test('a full queue drops and counts; a collector that never answers costs at most the deadline, and its batch counts as dropped', async () => {
  const never = exporter(() => {});
  const processor = new BoundedProcessor(never, { maxQueue: 3, batchSize: 10, delayMs: 60_000 });
  for (let i = 0; i < 5; i += 1) processor.onEnd(span);
  expect(processor.counts.dropped).toBe(2);
  const counts = await processor.close(50);
  expect(counts).toMatchObject({ exported: 0, dropped: 5 });
  expect(counts.firstError).toContain('did not answer within 50 ms');
  // After close nothing is queued any more.
  processor.onEnd(span);
  expect(processor.counts.dropped).toBe(6);
});

test('batches of batchSize, one in flight at a time; failures counted, successes exported', async () => {
  let calls = 0;
  const flaky = exporter((_spans, done) => {
    calls += 1;
    setImmediate(() => done(calls === 2 ? { code: ExportResultCode.FAILED, error: new Error('503') } : { code: ExportResultCode.SUCCESS }));
  });
  const processor = new BoundedProcessor(flaky, { maxQueue: 100, batchSize: 4, delayMs: 5 });
  for (let i = 0; i < 10; i += 1) processor.onEnd(span);
  const counts = await processor.close(5_000);
  expect(flaky.batches).toEqual([4, 4, 2]);
  expect(counts).toEqual({ exported: 6, dropped: 4, firstError: '503' });
});
