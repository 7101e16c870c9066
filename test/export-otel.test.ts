/**
 * `isobudget export otel` and `run --otel-endpoint` against a real OTLP/HTTP receiver on
 * 127.0.0.1 that decodes the protobuf with the official definitions (support/otlp-receiver.ts):
 * the spans match calls.jsonl call for call, and a collector that refuses or hangs leaves a
 * run's results unchanged and its end bounded.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { runCli } from './support/cli.js';
import { writeExperiment } from './support/experiment.js';
import { KeyStore } from '../src/gateway/index.js';
import { startGatewayProcess } from './support/gateway-process.js';
import { startMockUpstream } from './support/mock-upstream.js';
import { startOtlpReceiver, type OtlpReceiver } from './support/otlp-receiver.js';

const receivers: OtlpReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(mode: 'ok' | 'refuse' | 'hang' = 'ok'): Promise<OtlpReceiver> {
  const started = await startOtlpReceiver(mode);
  receivers.push(started);
  return started;
}

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as T);
}

/** One run the export tests share (read-only), started once. */
let shared: ReturnType<typeof smallRun> | undefined;
const sharedRun = () => (shared ??= smallRun());

async function smallRun(extra: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<{ dir: string; code: number | null; stderr: string; ms: number }> {
  const { configPath, runsDir } = writeExperiment({ provider: '{ preset: sim }', cases: 6, extra: 'epochs: 2' });
  const started = Date.now();
  const result = await runCli(['run', configPath, '--out', runsDir, '--no-report', '--sim-latency-scale', '0', ...extra], { env });
  const dir = (/ledger: (\S+)/.exec(result.stdout)?.[1] ?? '').trim();
  return { dir, code: result.code, stderr: result.stderr, ms: Date.now() - started };
}

describe('export otel', () => {
  test('one trace per unit, one span per call: attributes match calls.jsonl and results.jsonl call for call', async () => {
    const run = await sharedRun();
    expect(run.code).toBe(0);
    const otlp = await receiver();
    const exported = await runCli(['export', 'otel', run.dir, '--endpoint', otlp.url, '--header', 'x-test-token=sekret-value']);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    expect(exported.stdout).not.toContain('sekret-value');
    const calls = readJsonl<CallRecord>(join(run.dir, 'calls.jsonl'));
    const results = readJsonl<ResultRecord>(join(run.dir, 'results.jsonl'));
    expect(exported.stdout).toContain(`exported ${calls.length + results.length} of ${calls.length + results.length} spans (${results.length} traces, ${calls.length} model calls)`);
    expect(otlp.contentTypes.every((t) => t === 'application/x-protobuf')).toBe(true);
    expect(otlp.headers.every((h) => h['x-test-token'] === 'sekret-value')).toBe(true);
    const callSpans = otlp.spans.filter((s) => s.attributes['gen_ai.operation.name'] !== undefined);
    const roots = otlp.spans.filter((s) => s.parentSpanId === '');
    expect(callSpans).toHaveLength(calls.length);
    expect(roots).toHaveLength(results.length);
    expect(new Set(otlp.spans.map((s) => s.traceId)).size).toBe(results.length);
    expect(otlp.spans[0]?.resource).toMatchObject({ 'service.name': 'isobudget' });
    expect(otlp.spans[0]?.schemaUrl).toBe('https://opentelemetry.io/schemas/1.37.0');
    for (const call of calls) {
      const span = callSpans.find((s) => s.attributes['isobudget.call_id'] === call.call_id);
      expect(span, `span of call ${call.call_id}`).toBeDefined();
      if (!span) continue;
      expect(span.name).toBe(`chat ${call.model}`);
      expect(span.kind).toBe(3); // CLIENT
      expect(span.endMs - span.startMs).toBe(call.latency_ms);
      expect(span.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'isobudget.sim', 'gen_ai.request.model': call.model, 'gen_ai.response.model': call.model,
        'gen_ai.request.max_tokens': call.max_tokens, 'gen_ai.usage.input_tokens': call.prompt_tokens as number, 'gen_ai.usage.output_tokens': call.completion_tokens as number,
        'gen_ai.response.finish_reasons': [call.finish_reason_raw ?? call.finish_reason],
        'isobudget.run_id': call.run_id, 'isobudget.case_id': call.case_id, 'isobudget.arm': call.arm, 'isobudget.n': call.n, 'isobudget.epoch': call.epoch, 'isobudget.path': call.path,
        'isobudget.budget': 2000, 'isobudget.reservation': call.reserved_tokens ?? (call.prompt_estimate as number) + call.max_tokens, 'isobudget.usage_missing': false,
        'langfuse.observation.type': 'generation', 'langfuse.experiment.id': `${call.run_id}/${call.arm}`, 'langfuse.experiment.item.id': call.case_id,
      });
      // The parent is its unit's root, and Langfuse's root observation id names it.
      const root = roots.find((r) => r.spanId === span.parentSpanId);
      expect(root?.traceId).toBe(span.traceId);
      expect(span.attributes['langfuse.experiment.item.root_observation_id']).toBe(root?.spanId);
      const result = results.find((r) => r.case_id === call.case_id && r.arm === call.arm && r.epoch === call.epoch);
      expect(root?.attributes).toMatchObject({ 'isobudget.passed': result?.passed as boolean, 'isobudget.total_tokens': result?.total_tokens as number, 'langfuse.experiment.item.root_observation_id': root?.spanId as string });
    }
    // No content without --include-content.
    expect(otlp.spans.some((s) => s.attributes['gen_ai.output.messages'] !== undefined || s.attributes['langfuse.trace.output'] !== undefined)).toBe(false);
    // Epochs are their own traces: both epochs of every n=1 unit.
    expect(new Set(roots.filter((r) => r.attributes['isobudget.n'] === 1).map((r) => r.attributes['isobudget.epoch']))).toEqual(new Set([0, 1]));
  });

  test('--include-content adds the answers; a refusing collector is retried, then counted as dropped (exit 3), bounded by --timeout', async () => {
    const run = await sharedRun();
    const otlp = await receiver();
    expect((await runCli(['export', 'otel', run.dir, '--endpoint', `${otlp.url}/v1/traces`, '--include-content'])).code).toBe(0);
    const results = readJsonl<ResultRecord>(join(run.dir, 'results.jsonl'));
    const withContent = otlp.spans.filter((s) => typeof s.attributes['gen_ai.output.messages'] === 'string');
    expect(withContent.length).toBeGreaterThan(0);
    const first = withContent[0];
    const messages = JSON.parse(String(first?.attributes['gen_ai.output.messages'])) as Array<{ parts: Array<{ content: string }> }>;
    const result = results.find((r) => r.case_id === first?.attributes['isobudget.case_id'] && r.arm === first?.attributes['isobudget.arm'] && r.epoch === first?.attributes['isobudget.epoch']);
    expect(messages[0]?.parts[0]?.content).toBe(result?.paths[Number(first?.attributes['isobudget.path'])]?.output);

    const refusing = await receiver('refuse');
    const refused = await runCli(['export', 'otel', run.dir, '--endpoint', refusing.url, '--timeout', '2']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/span\(s\) did not reach the collector/);
    // The exporter's own back-off retried the 503 before giving up.
    expect(refusing.requests).toBeGreaterThan(1);
  });

  test('bad input: no endpoint, a non-http endpoint, a header without a name — exit 2 before anything is sent', async () => {
    const run = await sharedRun();
    const none = await runCli(['export', 'otel', run.dir]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--endpoint URL is required');
    const ftp = await runCli(['export', 'otel', run.dir, '--endpoint', 'ftp://127.0.0.1/x']);
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toContain('must be an http(s) URL');
    const header = await runCli(['export', 'otel', run.dir, '--endpoint', 'http://127.0.0.1:9', '--header', '=secret']);
    expect(header.code).toBe(2);
    expect(header.stderr).not.toContain('secret');
  });
});

describe('run --otel-endpoint', () => {
  const stable = (dir: string) =>
    readJsonl<ResultRecord>(join(dir, 'results.jsonl'))
      .map(({ ts: _ts, run_id: _run, latency_ms: _latency, ...rest }) => rest)
      .sort((a, b) => `${a.arm}|${a.case_id}|${a.epoch}`.localeCompare(`${b.arm}|${b.case_id}|${b.epoch}`));

  test('streams every unit while the run goes (also via ISOBUDGET_OTEL_ENDPOINT); results as without it', async () => {
    const plain = await sharedRun();
    const otlp = await receiver();
    const streamed = await smallRun([], { ISOBUDGET_OTEL_ENDPOINT: otlp.url });
    expect(streamed.code).toBe(0);
    const calls = readJsonl<CallRecord>(join(streamed.dir, 'calls.jsonl'));
    const results = readJsonl<ResultRecord>(join(streamed.dir, 'results.jsonl'));
    expect(streamed.stderr).toContain(`otel: ${calls.length + results.length} of ${calls.length + results.length} spans sent to ${otlp.url}/v1/traces`);
    expect(otlp.spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat')).toHaveLength(calls.length);
    expect(stable(streamed.dir)).toEqual(stable(plain.dir));
  });

  test('a collector that refuses or hangs: same results, the run ends within a bounded wait, the drop is reported', async () => {
    const plain = await sharedRun();
    const refusing = await receiver('refuse');
    const hanging = await receiver('hang');
    const [down, stuck] = await Promise.all([smallRun(['--otel-endpoint', refusing.url]), smallRun(['--otel-endpoint', hanging.url])]);
    for (const run of [down, stuck]) {
      expect(run.code).toBe(0);
      expect(stable(run.dir)).toEqual(stable(plain.dir));
      expect(run.stderr).toMatch(/otel: 0 of \d+ spans sent .*; \d+ dropped .* the run's results are unaffected/);
      // Generous: the end waits at most 3 s on the collector (run-otel.ts), whatever the machine's load.
      expect(run.ms - plain.ms).toBeLessThan(20_000);
    }
    expect(hanging.requests).toBeGreaterThan(0);
  });
});

describe('export otel --gateway', () => {
  test("a real gateway's ledger: one span per recorded call, grouped by its tags", async () => {
    const upstream = await startMockUpstream();
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-gw-otel-'));
    const store = KeyStore.open(join(dir, 'keys.sqlite'));
    const { secret } = store.create({ budget: 50_000, tags: { run: 'gw-run', arm: 'candidate_single' } });
    store.close();
    const gateway = await startGatewayProcess(['--upstream', `${upstream.url}/v1`, '--data-dir', dir, '--quiet']);
    try {
      for (const caseId of ['c1', 'c1', 'c2']) {
        const response = await fetch(`${gateway.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}`, 'x-isobudget-tags': `case=${caseId}` },
          body: JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }),
        });
        expect(response.status).toBe(200);
        await response.text();
      }
    } finally {
      await gateway.stop();
      await upstream.close();
    }
    const otlp = await receiver();
    const exported = await runCli(['export', 'otel', '--gateway', dir, '--endpoint', otlp.url]);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    const calls = otlp.spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((s) => s.traceId)).size).toBe(2);
    expect(calls.every((s) => s.attributes['isobudget.role'] === 'gateway' && s.attributes['isobudget.run_id'] === 'gw-run' && s.attributes['gen_ai.request.model'] === 'gpt-4o-mini')).toBe(true);
    expect(calls.every((s) => typeof s.attributes['gen_ai.usage.input_tokens'] === 'number')).toBe(true);
    expect(JSON.stringify(otlp.spans)).not.toContain(secret);
  });
});
