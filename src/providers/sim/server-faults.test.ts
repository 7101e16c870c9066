import { describe, expect, it } from 'vitest';
import type { FaultKind } from './http/faults.js';
import type { ChatCompletion } from './http/wire-types.js';
import { startSimServer } from './server.js';

const REQUESTS = 400;
const RATES = { http429: 0.1, http500: 0.08, reset: 0.05, invalidJson: 0.07, missingUsage: 0.1, slow: 0.05 } as const;
const SLOW_MS = 300;

type Outcome = FaultKind | 'ok';

async function classify(url: string): Promise<Outcome> {
  const started = performance.now();
  let response: Response;
  try {
    response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'sim-small', messages: [{ role: 'user', content: 'Compute 12 + 30.' }], max_tokens: 20 }),
    });
  } catch {
    return 'reset';
  }
  if (response.status === 429) {
    expect(response.headers.get('retry-after')).toBe('2');
    await response.text();
    return 'http429';
  }
  if (response.status === 500) {
    await response.text();
    return 'http500';
  }
  const text = await response.text();
  let body: ChatCompletion;
  try {
    body = JSON.parse(text) as ChatCompletion;
  } catch {
    return 'invalidJson';
  }
  if (body.usage === undefined) return 'missingUsage';
  if (response.headers.get('x-sim-fault') === 'slow') {
    // A load-independent lower bound: the injected delay really happened.
    expect(performance.now() - started).toBeGreaterThanOrEqual(SLOW_MS * 0.9);
    return 'slow';
  }
  return 'ok';
}

describe('fault injection', () => {
  it('injects each fault at its configured rate, deterministically', async () => {
    const server = await startSimServer({ faults: { seed: 1, rates: RATES, retryAfterSeconds: 2, slowMs: SLOW_MS } });
    const counts: Record<Outcome, number> = { ok: 0, http429: 0, http500: 0, reset: 0, invalidJson: 0, missingUsage: 0, slow: 0 };
    try {
      for (let batch = 0; batch < REQUESTS; batch += 40) {
        const outcomes = await Promise.all(Array.from({ length: 40 }, () => classify(server.url)));
        for (const outcome of outcomes) counts[outcome] += 1;
      }
      // What clients saw is what the server says it injected.
      for (const kind of Object.keys(RATES) as FaultKind[]) expect(counts[kind]).toBe(server.stats.faults[kind]);
    } finally {
      await server.close();
    }
    for (const [kind, rate] of Object.entries(RATES) as Array<[FaultKind, number]>) {
      expect(Math.abs(counts[kind] / REQUESTS - rate), kind).toBeLessThanOrEqual(0.035);
    }
    expect(counts.ok / REQUESTS).toBeGreaterThan(0.45);
  });

  it('replays the same fault sequence for the same seed', async () => {
    const sequences: string[][] = [];
    for (let run = 0; run < 2; run += 1) {
      const server = await startSimServer({ faults: { seed: 9, rates: { http500: 0.3, missingUsage: 0.3 } } });
      const outcomes: string[] = [];
      for (let i = 0; i < 40; i += 1) outcomes.push(await classify(server.url));
      sequences.push(outcomes);
      await server.close();
    }
    expect(sequences[1]).toEqual(sequences[0]);
  });

  it('does not draw faults on metadata routes', async () => {
    const server = await startSimServer({ faults: { rates: { http500: 1 } } });
    try {
      expect((await fetch(`${server.url}/v1/models`)).status).toBe(200);
      expect((await fetch(`${server.url}/v1/messages/count_tokens`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('streams a broken event and omits streamed usage under faults', async () => {
    const broken = await startSimServer({ faults: { rates: { invalidJson: 1 } } });
    const noUsage = await startSimServer({ faults: { rates: { missingUsage: 1 } } });
    try {
      const body = { model: 'sim-small', messages: [{ role: 'user', content: 'Say hello.' }], stream: true, stream_options: { include_usage: true } };
      const text = await (await fetch(`${broken.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify(body) })).text();
      expect(text).not.toContain('[DONE]');
      const lines = text.split('\n').filter((l) => l.startsWith('data: '));
      expect(() => {
        for (const l of lines) JSON.parse(l.slice(6));
      }).toThrow();
      const clean = await (await fetch(`${noUsage.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify(body) })).text();
      expect(clean).toContain('[DONE]');
      expect(clean).not.toContain('prompt_tokens');
    } finally {
      await broken.close();
      await noUsage.close();
    }
  });

  it('refuses rates that sum past 1', async () => {
    await expect(startSimServer({ faults: { rates: { http429: 0.7, http500: 0.6 } } })).rejects.toThrow(RangeError);
  });
});
