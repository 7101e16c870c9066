/**
 * The real Codex 0.171.0 binary (`codex exec`) through the gateway, configured by
 * `isobudget clients write codex --gateway`: the written config turns Codex's hosted web search
 * off, so a budgeted key admits its calls (the gateway refuses `web_search` on budgeted keys:
 * its billing is not in the body); a spent key's answer reaches the user verbatim and Codex
 * does not retry it. The upstream is a recorder on 127.0.0.1 speaking the Responses API.
 *
 * The binary comes from `scripts/install-real-clients.sh` (CI runs it); without it the file is
 * skipped with a line saying how to install it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from './support/cli.js';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process.js';

const CLIENTS = process.env['ISOBUDGET_REAL_CLIENTS'] ?? join(tmpdir(), 'isobudget-real-clients');
const CODEX = join(CLIENTS, 'node_modules', '.bin', 'codex');
const present = existsSync(CODEX);
if (!present) console.warn(`real-codex: skipped — no Codex binary at ${CODEX} (run: bash scripts/install-real-clients.sh)`);

const UPSTREAM_KEY = 'sk-upstream-7f3a9c1e5b2d4f6a8c0e';
const received: Array<Record<string, unknown>> = [];
let upstream: Server;
let upstreamUrl = '';
let gateway: GatewayProcess;
let dataDir = '';

/** A Responses API stream: one assistant message saying "ok", with usage. */
function answer(): string {
  const event = (type: string, fields: Record<string, unknown>): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
  const message = { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok', annotations: [] }] };
  const response = { id: 'resp_1', object: 'response', model: 'gpt-5', status: 'completed', output: [message], usage: { input_tokens: 900, output_tokens: 2, total_tokens: 902 } };
  return event('response.created', { response: { ...response, status: 'in_progress', output: [] } }) + event('response.output_item.done', { output_index: 0, item: message }) + event('response.completed', { response });
}

beforeAll(async () => {
  if (!present) return;
  upstream = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      received.push(JSON.parse(text) as Record<string, unknown>);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(answer());
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  dataDir = mkdtempSync(join(tmpdir(), 'isobudget-real-codex-'));
  gateway = await startGatewayProcess(['--upstream', upstreamUrl, '--data-dir', dataDir], { ISOBUDGET_UPSTREAM_API_KEY: UPSTREAM_KEY });
}, 30_000);

afterAll(async () => {
  if (!present) return;
  await gateway.stop();
  await new Promise((resolve) => upstream.close(resolve));
});

async function createKey(budget: number): Promise<string> {
  const created = await runCli(['gateway', 'keys', 'create', '--budget', String(budget), '--data-dir', dataDir]);
  expect(created.code, created.stderr).toBe(0);
  return created.stdout.trim();
}

/** A Codex home holding the config `clients write codex --gateway` writes (with a model). */
async function codexHome(): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'isobudget-codex-home-'));
  mkdirSync(join(home, '.codex'));
  const written = await runCli(['clients', 'write', 'codex', '--gateway', gateway.url, '--model', 'gpt-5', '--out', join(home, '.codex', 'config.toml')]);
  expect(written.code, written.stderr).toBe(0);
  return home;
}

function codexExec(home: string, key: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const env = { PATH: process.env.PATH, HOME: home, CODEX_HOME: join(home, '.codex'), ISOBUDGET_API_KEY: key };
    const child = spawn(CODEX, ['exec', '--skip-git-repo-check', 'Say ok.'], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe.skipIf(!present)('the real Codex 0.171.0 through the gateway', () => {
  test('the config from `clients write` has hosted web search off: a budgeted key admits the call, and the ledger has it', async () => {
    const home = await codexHome();
    expect(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')).toContain('web_search = "disabled"');
    const key = await createKey(200_000);
    const before = received.length;
    const run = await codexExec(home, key);
    expect(run.code, run.output).toBe(0);
    expect(run.output).not.toContain('unestimable_field');
    const bodies = received.slice(before);
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) {
      const tools = (body['tools'] as Array<Record<string, unknown>> | undefined) ?? [];
      expect(tools.length).toBeGreaterThan(0);
      expect(tools.map((tool) => tool['type'])).not.toContain('web_search');
    }
    expect(run.output).not.toContain(key);
    expect(run.output).not.toContain(UPSTREAM_KEY);
    // The key's spend is written in batches: wait for it.
    let spent = 0;
    for (let tries = 0; tries < 50 && spent === 0; tries += 1) {
      const list = JSON.parse((await runCli(['gateway', 'keys', 'list', '--data-dir', dataDir, '--json'])).stdout) as Array<{ id: string; spent: number }>;
      spent = list.find((row) => row.id === key.slice(4, 16))?.spent ?? 0;
      if (spent === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(spent).toBe(902 * bodies.length);
  }, 90_000);

  test("with Codex's default (hosted web search on) a budgeted key refuses the call with the gateway's reason, and Codex does not retry it", async () => {
    const home = await codexHome();
    const file = join(home, '.codex', 'config.toml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('web_search = "disabled"\n', ''));
    const key = await createKey(200_000);
    const before = received.length;
    const run = await codexExec(home, key);
    expect(run.code).not.toBe(0);
    expect(run.output).toContain('unestimable_field');
    expect(received.length - before).toBe(0);
  }, 90_000);

  test("a spent key: Codex shows the gateway's message verbatim and sends it once", async () => {
    const home = await codexHome();
    const key = await createKey(1);
    const before = received.length;
    const started = Date.now();
    const run = await codexExec(home, key);
    expect(run.code).not.toBe(0);
    expect(run.output).toContain('isobudget gateway: the token budget of this key is spent');
    expect(run.output).not.toContain('Quota exceeded');
    expect(received.length - before).toBe(0);
    const calls = readGatewayRequests(key);
    expect(calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 90_000);
});

/** How many requests the gateway logged for this key (its request log line names the key id). */
function readGatewayRequests(key: string): number {
  const id = key.slice(4, 16);
  return gateway.output().split('\n').filter((line) => line.includes(id) && /\/v1\/responses/.test(line)).length;
}
