#!/usr/bin/env node
/**
 * `sim serve` for benchmarks, in its own process so its CPU and memory are not billed to
 * the harness being measured.
 *
 *   node bench/sim-server.mjs [--seed 0] [--port 0] [--latency-scale 0]
 *
 * Prints one JSON line `{"url": "http://127.0.0.1:PORT"}` on stdout once listening.
 *
 * Independent token count ("every token accounted"): before the server starts, this process
 * wraps `http.ServerResponse.prototype.end` and, for every 200 JSON reply it sends on a
 * generating route, parses the body it is about to put on the wire and adds up
 * `usage.total_tokens` (and counts replies without usage). That is the server's own
 * bill, computed on the far side of the socket — it shares no code path with the client's
 * SDK parsing, usage mapping or ledger writer it is checked against.
 *
 * When started with an IPC channel (child_process.fork), it answers the message
 * `{ type: 'stats' }` with `{ type: 'stats', stats }` and exits when the channel closes.
 */
import http from 'node:http';
import { parseArgs } from 'node:util';
import { startSimServer } from '../dist/providers/sim/index.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '0' },
    port: { type: 'string', default: '0' },
    'latency-scale': { type: 'string', default: '0' },
  },
});

const billing = {
  /** 200 JSON replies on generating routes. */
  replies: 0,
  repliesWithUsage: 0,
  repliesMissingUsage: 0,
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  /** Choices (paths) returned across all replies. */
  choices: 0,
  /** Non-200 replies (errors) on any route. */
  errorReplies: 0,
};

const GENERATING = new Set(['/v1/chat/completions', '/v1/responses', '/v1/messages']);
const originalEnd = http.ServerResponse.prototype.end;
http.ServerResponse.prototype.end = function end(chunk, ...rest) {
  try {
    const pathname = (this.req?.url ?? '').split('?')[0];
    if (this.statusCode !== 200) billing.errorReplies += 1;
    else if (GENERATING.has(pathname) && chunk !== undefined && chunk !== null && typeof chunk !== 'function') {
      // writeHead(status, headers) bypasses getHeader(), so recognise JSON by its first byte
      // (SSE bodies start with `data:` / `event:` and are not billed here).
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      if (text.startsWith('{')) countReply(text);
    }
  } catch {
    // Counting must never break the server; a reply we cannot parse is counted as missing usage.
    billing.repliesMissingUsage += 1;
  }
  return originalEnd.call(this, chunk, ...rest);
};

function countReply(text) {
  billing.replies += 1;
  const body = JSON.parse(text);
  const usage = body?.usage;
  // OpenAI chat: total_tokens; responses: total_tokens; anthropic: input + output.
  const total = typeof usage?.total_tokens === 'number' ? usage.total_tokens : typeof usage?.input_tokens === 'number' && typeof usage?.output_tokens === 'number' ? usage.input_tokens + usage.output_tokens : undefined;
  if (total === undefined) {
    billing.repliesMissingUsage += 1;
  } else {
    billing.repliesWithUsage += 1;
    billing.totalTokens += total;
    billing.promptTokens += usage.prompt_tokens ?? usage.input_tokens ?? 0;
    billing.completionTokens += usage.completion_tokens ?? usage.output_tokens ?? 0;
  }
  billing.choices += Array.isArray(body?.choices) ? body.choices.length : 1;
}

const server = await startSimServer({ seed: Number(values.seed), port: Number(values.port), latencyScale: Number(values['latency-scale']) });

function snapshot() {
  const usage = process.resourceUsage();
  return {
    server: server.stats,
    billing,
    process: { maxRssMB: usage.maxRSS / 1024, userCpuS: usage.userCPUTime / 1e6, systemCpuS: usage.systemCPUTime / 1e6 },
  };
}

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  await server.close().catch(() => undefined);
  process.exit(0);
}

if (process.send) {
  process.on('message', (message) => {
    if (message?.type === 'stats') process.send({ type: 'stats', stats: snapshot() });
    if (message?.type === 'close') void shutdown();
  });
  process.on('disconnect', () => void shutdown());
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());

process.stdout.write(`${JSON.stringify({ url: server.url, pid: process.pid })}\n`);
