#!/usr/bin/env node
/**
 * A bare Node pass-through proxy — no keys, no budget, no usage, no ledger — as the
 * reference line in bench/gateway-overhead.mjs: on a busy machine it shows how much of the
 * gateway's added latency is the extra loopback hop itself rather than the gateway's work.
 *
 *   node bench/gateway-naive-proxy.mjs UPSTREAM_URL   → prints {"url": "http://127.0.0.1:PORT"}
 */
import { Agent, createServer, request } from 'node:http';

const upstream = new URL(process.argv[2] ?? 'http://127.0.0.1:8787');
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
const server = createServer({ keepAlive: true, noDelay: true }, (req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const headers = { ...req.headers, host: upstream.host, 'content-length': String(body.length) };
    const out = request({ hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers, agent }, (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    out.on('error', () => res.destroy());
    out.end(body);
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`));
process.on('SIGTERM', () => process.exit(0));
