import { expect, test } from 'vitest';
import { startHarness } from './test-support/harness.js';

test('smoke', async () => {
  const h = await startHarness();
  const key = h.mint(5000, { run: 'r1' });
  const r = await fetch(`${h.gateway.url}/v1/messages?beta=true`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ model: 'sim-small', max_tokens: 128000, stream: true, messages: [{ role: 'user', content: 'What is 2 + 3?' }] }) });
  console.log(r.status, [...r.headers]);
  console.log(await r.text());
  const j = await fetch(`${h.gateway.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'sim-small', stream: true, messages: [{ role: 'user', content: 'What is 2 + 3?' }] }) });
  console.log(j.status, await j.text());
  await new Promise((r) => setTimeout(r, 50));
  console.log(JSON.stringify(h.sink.records, null, 1), h.logs, h.sim.lastHeaders());
  await h.close();
  expect(1).toBe(1);
});
