/**
 * Every request real clients sent (fixtures/real-clients: Claude Code 2.1.332, Codex
 * 0.171.0) replayed through the gateway to `sim serve`: well-formed responses, and one
 * ledger record per model call whose usage equals what the simulator reports for the same
 * request sent to it directly.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseSseText } from '../src/providers/sim/index.js';
import { startHarness, type Harness } from '../src/gateway/test-support/harness.js';

const DIR = '/work/shared/fixtures/real-clients';
interface FixtureRequest { seq: number; method: string; path: string; query?: string; headers: Record<string, string>; body: unknown; response: { status: number } }
const FIXTURES = readdirSync(DIR).filter((f) => f.endsWith('.jsonl')).sort().map((file) => ({
  file,
  requests: readFileSync(`${DIR}/${file}`, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as FixtureRequest),
}));

/** Headers as the client sent them, with our virtual key where its credential was. */
function replayHeaders(recorded: Record<string, string>, key: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(recorded)) {
    // `connection` stays for Codex's WebSocket attempts (Connection: Upgrade), so they are replayed as such.
    if (['host', 'content-length', 'accept-encoding'].includes(name) || (name === 'connection' && recorded['upgrade'] === undefined)) continue;
    out[name] = name === 'authorization' ? value.replace('<redacted>', key) : name === 'x-api-key' ? key : value;
  }
  return out;
}

interface Reply { status: number; headers: Record<string, string | string[] | undefined>; body: string }

function send(url: string, method: string, headers: Record<string, string>, body: string | undefined): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The usage a stream reports, read independently of the gateway's own parser. */
function streamUsage(path: string, text: string): { input: number; output: number } {
  const events = parseSseText(text).map((e) => ({ event: e.event, data: e.data === '[DONE]' ? {} : (JSON.parse(e.data) as Record<string, any>) }));
  if (path.startsWith('/v1/messages')) {
    const start = events.find((e) => e.event === 'message_start')?.data.message.usage;
    const delta = events.find((e) => e.event === 'message_delta')?.data.usage;
    return { input: start.input_tokens + start.cache_creation_input_tokens + start.cache_read_input_tokens, output: delta.output_tokens };
  }
  const done = events.find((e) => e.event === 'response.completed')?.data.response.usage;
  return { input: done.input_tokens, output: done.output_tokens };
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ sim: { seed: 11 } });
});
afterAll(async () => {
  await h.close();
});

describe.each(FIXTURES)('$file', ({ requests }) => {
  test.each([
    { name: 'a key without budget', budget: undefined },
    { name: 'a key with a budget (output caps clamped)', budget: 400_000 },
  ])('replayed with $name', async ({ budget }) => {
    const key = h.mint(budget, { run: 'replay' });
    const before = h.sink.records.length;
    let modelCalls = 0;
    for (const recorded of requests) {
      const path = `${recorded.path}${recorded.query ?? ''}`;
      const body = recorded.body === null || recorded.body === undefined ? undefined : JSON.stringify(recorded.body);
      const reply = await send(`${h.gateway.url}${path}`, recorded.method, replayHeaders(recorded.headers, key), body);
      if (recorded.method !== 'POST') {
        // Claude Code's HEAD /api/hello probe and Codex's WebSocket attempts: a 404, as recorded; Codex then falls back to HTTP.
        expect(reply.status, `${recorded.method} ${path}`).toBe(404);
        continue;
      }
      modelCalls += 1;
      expect(reply.status, reply.body.slice(0, 300)).toBe(200);
      // Claude Code sends accept: application/json with stream: true — the stream comes back anyway.
      expect(reply.headers['content-type']).toContain('text/event-stream');
      const events = parseSseText(reply.body);
      const anthropic = recorded.path.startsWith('/v1/messages');
      expect(events[0]?.event).toBe(anthropic ? 'message_start' : 'response.created');
      expect(events.at(-1)?.event).toBe(anthropic ? 'message_stop' : 'response.completed');
      const received = streamUsage(recorded.path, reply.body);
      // The same request straight to the simulator bills the same (it is deterministic); unclamped runs must match it exactly.
      const direct = await send(`${h.sim.url}${path}`, 'POST', { 'content-type': 'application/json' }, body);
      const simReports = streamUsage(recorded.path, direct.body);
      expect(received.input).toBe(simReports.input);
      if (budget === undefined) expect(received).toEqual(simReports);
      const record = h.sink.records[before + modelCalls - 1];
      expect(record).toMatchObject({
        role: 'gateway', run_id: 'replay', endpoint: recorded.path, stream: true, status: 200, usage_missing: false, finish_reason: 'stop',
        prompt_tokens: received.input, completion_tokens: received.output, total_tokens: received.input + received.output,
        model: (recorded.body as { model: string }).model, protocol: anthropic ? 'anthropic-messages' : 'openai-responses',
        session_id: recorded.headers['x-claude-code-session-id'] ?? recorded.headers['session-id'],
      });
      if (budget !== undefined) {
        expect(record?.max_tokens).toBeLessThanOrEqual(budget);
        // Codex sends no cap; with a budget one is added.
        if (!anthropic) expect(record?.requested_max_tokens).toBeUndefined();
        else expect(record?.requested_max_tokens).toBe(128000);
      }
    }
    expect(h.sink.records.length - before).toBe(modelCalls);
  });
});

test('the replayed requests forwarded no client credential and kept the protocol headers', () => {
  const seen = h.sim.lastHeaders();
  expect(seen.some((headers) => headers['anthropic-beta']?.includes('claude-code-20250219'))).toBe(true);
  expect(seen.some((headers) => headers['x-claude-code-session-id'] !== undefined)).toBe(true);
  expect(seen.some((headers) => headers['session-id'] !== undefined && headers['originator'] === 'codex_exec')).toBe(true);
  for (const headers of seen) {
    expect(headers['authorization'] ?? '').not.toContain('ibk-');
    expect(headers['x-api-key'] ?? '').not.toContain('ibk-');
  }
});
