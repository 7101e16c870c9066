/**
 * Disk trouble is not a crash (issue 16, item 4): with its data dir on a small tmpfs that
 * fills up while calls are in flight, the gateway stays up, answers new calls 503 in their
 * protocol's shape naming the data dir, still records every call the upstream billed, and
 * takes calls again once there is room. Needs root to mount the tmpfs; skipped otherwise.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { KeyStore } from '../src/gateway/keys/key-store.js';
import { ledgerFiles } from '../src/gateway/ledger/gateway-index.js';
import type { GatewayCallRecord } from '../src/gateway/ledger/gateway-record.js';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process.js';
import { startMockUpstream, type MockUpstream } from './support/mock-upstream.js';

let upstream: MockUpstream;
beforeAll(async () => {
  upstream = await startMockUpstream({ answerTokens: 20 });
});
afterAll(async () => {
  await upstream.close();
});

/** Writes until the filesystem refuses: the disk is then full. */
function fill(file: string): void {
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

async function call(gateway: GatewayProcess, path: string, secret: string, who: string): Promise<{ status: number; text: string }> {
  const body = path === '/v1/messages' ? { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] } : { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };
  const response = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}`, 'x-claude-code-session-id': who, 'anthropic-version': '2023-06-01' }, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

test('a full data dir: still up, 503 naming the dir, every billed call in the ledger, and calls again once there is room', async (context) => {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-gw-full-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    console.warn(`skipped: cannot mount a tmpfs here (${mounted.stderr.trim() || mounted.error?.message}); the full-disk test needs root`);
    rmSync(dir, { recursive: true, force: true });
    context.skip();
    return;
  }
  let gateway: GatewayProcess | undefined;
  try {
    const store = KeyStore.open(join(dir, 'keys.sqlite'));
    const { secret } = store.create({ budget: 1_000_000, tags: {} });
    store.close();
    gateway = await startGatewayProcess(['--upstream', `${upstream.url}/v1`, '--data-dir', dir]);
    const who = 'disk';
    for (let i = 0; i < 3; i += 1) expect((await call(gateway, '/v1/chat/completions', secret, who)).status).toBe(200);

    // Calls in flight when the disk fills: they went out, they will bill, their records must land.
    upstream.set({ answerTokens: 20, delayMs: 700 });
    const inFlight = Array.from({ length: 6 }, (_, i) => call(gateway as GatewayProcess, i % 2 ? '/v1/messages' : '/v1/chat/completions', secret, who));
    while (upstream.bills.filter((bill) => bill.who === who).length < 9) await new Promise((resolve) => setTimeout(resolve, 10));
    fill(join(dir, 'filler'));
    upstream.set({ answerTokens: 20 });
    expect((await Promise.all(inFlight)).map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200, 200]);

    // New calls are refused, in each protocol's shape, naming the data dir; nothing goes upstream.
    const billedBefore = upstream.bills.length;
    const chat = await call(gateway, '/v1/chat/completions', secret, who);
    const messages = await call(gateway, '/v1/messages', secret, who);
    expect([chat.status, messages.status]).toEqual([503, 503]);
    expect(JSON.parse(chat.text)).toMatchObject({ error: { type: 'server_error', code: 'gateway_storage_unavailable', message: expect.stringContaining(`cannot write to its data dir ${dir} (ENOSPC`) } });
    expect(JSON.parse(messages.text)).toMatchObject({ type: 'error', error: { type: 'api_error', message: expect.stringContaining(dir) } });
    expect(upstream.bills.length).toBe(billedBefore);
    expect(gateway.child.exitCode).toBeNull();

    // Every call the upstream billed is in the ledger already, while the disk is still full.
    const recorded = (): GatewayCallRecord[] => ledgerFiles(join(dir, 'ledger')).flatMap((file) => readJsonl<GatewayCallRecord>(file, { requireSchemaVersion: true }).records).filter((r) => r.session_id === who && r.status === 200);
    expect(recorded()).toHaveLength(upstream.bills.filter((bill) => bill.who === who).length);

    // Room again: calls are taken again (the gateway retries its writes by itself).
    rmSync(join(dir, 'filler'));
    let status = 0;
    for (const until = performance.now() + 10_000; status !== 200 && performance.now() < until; await new Promise((resolve) => setTimeout(resolve, 100))) status = (await call(gateway, '/v1/chat/completions', secret, who)).status;
    expect(status).toBe(200);
    expect(recorded()).toHaveLength(upstream.bills.filter((bill) => bill.who === who).length);
    expect(gateway.output()).toMatch(/writes to .* succeed again/);
  } finally {
    await gateway?.stop();
    spawnSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
