/**
 * Gateway replicas as real processes (`node dist/cli/bin.js gateway --db URL`), and clients
 * that spread calls over them with the official SDKs. For the Postgres replica tests.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { applyMigrations, MIGRATIONS } from '../../src/db/index.js';
import { freshSchema, type TestSchema } from '../../src/test-support/postgres.js';
import { startMockUpstream, type MockUpstream } from './mock-upstream.js';

export const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'bin.js');

export interface ReplicaProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  stderr: () => string;
  /** SIGTERM, and wait for the exit (settlements written, leases returned). */
  stop(): Promise<number | null>;
  /** kill -9. */
  kill(): Promise<void>;
}

export async function startReplica(db: string, upstream: string, extra: string[] = []): Promise<ReplicaProcess> {
  const child = spawn(process.execPath, [BIN, 'gateway', '--db', db, '--upstream', upstream, '--port', '0', '--quiet', ...extra], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`replica did not start in 15 s: ${err}`)), 15_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then((code) => reject(new Error(`replica exited ${code}: ${err}`)));
  });
  return {
    url,
    pid: child.pid!,
    child,
    stderr: () => err,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface CallOutcome {
  who: string;
  status: number;
}

/** The output cap call `i` of a mixed load asks for (40–240 tokens). */
export function mixedCallCap(i: number): number {
  return 40 + ((i * 37) % 200);
}

/**
 * Call `i` of a mixed load: OpenAI chat or Anthropic messages, streamed or not, with an
 * output cap of 40–240 tokens, through `url`; `who` is its session id (what the mock
 * upstream bills it under). Never retried: a refusal is an outcome.
 */
export async function mixedCall(url: string, secret: string, i: number, who: string): Promise<CallOutcome> {
  const cap = mixedCallCap(i);
  const headers = { 'x-claude-code-session-id': who };
  const messages = [{ role: 'user' as const, content: `call ${i}: say something` }];
  try {
    if (i % 4 < 2) {
      const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: secret, maxRetries: 0, defaultHeaders: headers, timeout: 60_000 });
      if (i % 4 === 0) await client.chat.completions.create({ model: 'mock', messages, max_tokens: cap });
      else for await (const _chunk of await client.chat.completions.create({ model: 'mock', messages, max_tokens: cap, stream: true }));
    } else {
      const client = new Anthropic({ baseURL: url, apiKey: secret, maxRetries: 0, defaultHeaders: headers, timeout: 60_000 });
      if (i % 4 === 2) await client.messages.create({ model: 'mock', messages, max_tokens: cap });
      else for await (const _event of client.messages.stream({ model: 'mock', messages, max_tokens: cap }));
    }
    return { who, status: 200 };
  } catch (error) {
    const status = (error as { status?: number }).status;
    return { who, status: typeof status === 'number' ? status : 0 };
  }
}

/**
 * A migrated schema whose `gateway_keys` counts, per key, the updates that raise `reserved`
 * (a reservation or a lease top-up on the key's row), and a mock upstream answering in 2–11 ms;
 * replicas started through `replica` are killed after. For the automatic-lease tests.
 */
export function useGrantCountingSchema(prefix: string): {
  readonly schema: TestSchema;
  readonly db: pg.Pool;
  readonly upstream: MockUpstream;
  replica(flags?: string[]): Promise<ReplicaProcess>;
  mint(budget: number): { secret: string; id: string };
  grants(id: string): Promise<number>;
} {
  let schema: TestSchema | undefined;
  let db: pg.Pool | undefined;
  let upstream: MockUpstream | undefined;
  const running: ReplicaProcess[] = [];
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useGrantCountingSchema: used before its beforeAll ran');
    return value;
  };
  beforeAll(async () => {
    schema = await freshSchema(prefix);
    db = new pg.Pool({ connectionString: schema.url, max: 2 });
    await applyMigrations(db, MIGRATIONS);
    const s = schema.schema;
    await db.query(`CREATE TABLE ${s}.grants_counted (key_id text PRIMARY KEY, n bigint NOT NULL)`);
    await db.query(`CREATE FUNCTION ${s}.count_grant() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ${s}.grants_counted VALUES (NEW.id, 1) ON CONFLICT (key_id) DO UPDATE SET n = ${s}.grants_counted.n + 1;
        RETURN NEW;
      END $$`);
    await db.query(`CREATE TRIGGER count_grant BEFORE UPDATE ON ${s}.gateway_keys FOR EACH ROW WHEN (NEW.reserved > OLD.reserved) EXECUTE FUNCTION ${s}.count_grant()`);
    upstream = await startMockUpstream({ delayMs: () => 2 + Math.floor(Math.random() * 10) });
  });
  afterAll(async () => {
    await Promise.all(running.map((r) => r.kill().catch(() => {})));
    await upstream?.close();
    await db?.end();
    await schema?.drop();
  });
  return {
    get schema() {
      return ready(schema);
    },
    get db() {
      return ready(db);
    },
    get upstream() {
      return ready(upstream);
    },
    async replica(flags = []) {
      const started = await startReplica(ready(schema).url, `${ready(upstream).url}/v1`, flags);
      running.push(started);
      return started;
    },
    mint(budget) {
      const minted = JSON.parse(
        execFileSync(process.execPath, [BIN, 'gateway', 'keys', 'create', '--budget', String(budget), '--json', '--db', ready(schema).url], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } }),
      ) as { id: string; key: string };
      return { secret: minted.key, id: minted.id };
    },
    async grants(id) {
      return Number((await ready(db).query('SELECT n FROM grants_counted WHERE key_id = $1', [id])).rows[0]?.n ?? 0);
    },
  };
}
