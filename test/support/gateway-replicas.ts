/**
 * Gateway replicas as real processes (`node dist/cli/bin.js gateway --db URL`), and clients
 * that spread calls over them with the official SDKs. For the Postgres replica tests.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

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

/**
 * Call `i` of a mixed load: OpenAI chat or Anthropic messages, streamed or not, with an
 * output cap of 40–240 tokens, through `url`; `who` is its session id (what the mock
 * upstream bills it under). Never retried: a refusal is an outcome.
 */
export async function mixedCall(url: string, secret: string, i: number, who: string): Promise<CallOutcome> {
  const cap = 40 + ((i * 37) % 200);
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
