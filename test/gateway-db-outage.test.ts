/**
 * A gateway replica whose database goes out of reach (a TCP proxy between it and Postgres,
 * cut and restored): it stays up, answers new calls 503 `gateway_storage_unavailable` in the
 * protocol's shape — never 500, never an unreserved call upstream — and takes calls again once
 * the database answers. A call in flight at the cut finishes for its client; its settlement is
 * written when the database is back, so spent = Σ booked_tokens and nothing stays reserved.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applyMigrations, MIGRATIONS } from '../src/db/index.js';
import { startGateway, type Gateway } from '../src/gateway/server.js';
import { openPgStore, type PgGatewayStore } from '../src/gateway/store/pg/open-store.js';
import { freshSchema, skipWithoutPostgres, TEST_DATABASE_URL, type TestSchema } from '../src/test-support/postgres.js';
import { startMockUpstream, type MockUpstream } from './support/mock-upstream.js';

const skip = await skipWithoutPostgres('gateway database outage');

/** A TCP relay to Postgres that can be cut (every connection dropped, new ones refused) and restored on the same port. */
async function relay(target: URL): Promise<{ port: number; cut(): Promise<void>; restore(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let server: Server;
  let port = 0;
  const listen = (): Promise<void> => new Promise((resolve) => {
    server = createServer((client) => {
      const upstream = createConnection(target);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => {});
        socket.on('close', () => {
          sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    server.listen(port, '127.0.0.1', () => {
      port = (server.address() as AddressInfo).port;
      resolve();
    });
  });
  await listen();
  return {
    port,
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restore: listen,
  };
}

function createConnection(target: URL): Socket {
  return connect(Number(target.port || 5432), target.hostname);
}

describe.skipIf(skip)('a replica whose database goes away', () => {
  let schema: TestSchema;
  let direct: pg.Pool;
  let viaRelay: pg.Pool;
  let upstream: MockUpstream;
  let store: PgGatewayStore;
  let gateway: Gateway;
  let link: Awaited<ReturnType<typeof relay>>;

  beforeAll(async () => {
    schema = await freshSchema('gwout');
    direct = new pg.Pool({ connectionString: schema.url, max: 2 });
    await applyMigrations(direct, MIGRATIONS);
    link = await relay(new URL(TEST_DATABASE_URL));
    const url = new URL(schema.url);
    url.host = `127.0.0.1:${link.port}`;
    viaRelay = new pg.Pool({ connectionString: url.toString(), max: 4, connectionTimeoutMillis: 1000 });
    viaRelay.on('error', () => {});
    upstream = await startMockUpstream();
    store = await openPgStore({ db: viaRelay, where: 'test-db', upstream: upstream.url, staleMs: 60_000 });
    gateway = await startGateway({ upstream: `${upstream.url}/v1`, store });
  });
  afterAll(async () => {
    await gateway?.close();
    await viaRelay?.end();
    await direct?.end();
    await upstream?.close();
    await schema?.drop();
  });

  const chat = (secret: string, who: string): Promise<Response> =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}`, 'x-claude-code-session-id': who },
      body: JSON.stringify({ model: 'mock', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] }),
    });

  test('503 while it is out of reach, calls again once it is back, nothing lost', async () => {
    const { key, secret } = await store.keys.create({ budget: 10_000, tags: {} });
    expect((await chat(secret, 'before')).status).toBe(200);
    // A call in flight when the link drops: the client still gets its answer.
    upstream.set({ delayMs: 300 });
    const received = upstream.received;
    const inFlight = chat(secret, 'in-flight');
    // Cut once the upstream has it (admitted, reserved), not after a fixed 100 ms a loaded CI may not give it.
    await expect.poll(() => upstream.received, { timeout: 10_000, interval: 5 }).toBe(received + 1);
    await link.cut();
    expect((await inFlight).status).toBe(200);
    upstream.set({});
    const refused = await chat(secret, 'during');
    expect(refused.status).toBe(503);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('gateway_storage_unavailable');
    expect(body.error.message).toMatch(/^isobudget gateway: the database test-db is unreachable \(/);
    expect(upstream.bills.some((bill) => bill.who === 'during')).toBe(false);
    await link.restore();
    let after = 0;
    for (const deadline = Date.now() + 8_000; Date.now() < deadline && after !== 200; await new Promise((resolve) => setTimeout(resolve, 200))) {
      after = (await chat(secret, 'after')).status;
    }
    expect(after).toBe(200);
    // The in-flight call's settlement was retried until the database took it.
    for (const deadline = Date.now() + 8_000; Date.now() < deadline && store.backlog() > 0; ) await new Promise((resolve) => setTimeout(resolve, 50));
    // The replica's automatic lease on the key goes back once the key is idle for 1 s.
    await expect.poll(async () => Number((await direct.query('SELECT reserved FROM gateway_keys WHERE id = $1', [key.id])).rows[0].reserved), { timeout: 10_000, interval: 50 }).toBe(0);
    const row = (await direct.query('SELECT spent, reserved FROM gateway_keys WHERE id = $1', [key.id])).rows[0];
    const calls = (await direct.query('SELECT session_id, booked_tokens FROM gateway_calls WHERE key_id = $1 AND status = 200', [key.id])).rows;
    const billed = upstream.bills.reduce((sum, bill) => sum + bill.total, 0);
    expect(new Set(calls.map((c) => c.session_id))).toEqual(new Set(['before', 'in-flight', 'after']));
    expect(Number(row.reserved)).toBe(0);
    expect(Number(row.spent)).toBe(calls.reduce((sum, c) => sum + Number(c.booked_tokens), 0));
    expect(Number(row.spent)).toBeGreaterThanOrEqual(billed);
  }, 30_000);
});
