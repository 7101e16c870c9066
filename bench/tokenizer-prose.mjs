#!/usr/bin/env node
/**
 * o200k pre-tokenizer: the ASCII fast path (src/core/bpe/o200k-ascii-pieces.ts) against the
 * regex alone, on ~70 KB of JSON and code (package-lock.json's packages, then src/stats sources)
 * and on 300 characters of prose. Both encoders share the vocabulary file and the split regex;
 * only o200k() is given the fast path. Run `npm run build` first: it imports dist/.
 *
 *   node bench/tokenizer-prose.mjs [--rounds 7]
 *
 * Each (encoder, text) pair runs in a child process of its own and counts the text in batches
 * (warm caches, as a gateway's are); the best batch per call is printed in µs (the figure least
 * disturbed by other load on the machine), with the median.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const { values } = parseArgs({ strict: false, options: { rounds: { type: 'string', default: '7' }, variant: { type: 'string' }, text: { type: 'string' } } });
const bpe = join(root, 'dist', 'core', 'bpe');
const { o200k, O200K_SPLIT } = await import(join(bpe, 'o200k.js'));
const { createBpeEncoder } = await import(join(bpe, 'bpe-encoder.js'));
const { readTiktokenFile } = await import(join(bpe, 'token-table.js'));

const vocabulary = createRequire(join(root, 'package.json')).resolve('gpt-tokenizer/data/o200k_base.tiktoken');

function codeText() {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  let text = JSON.stringify(lock.packages, null, 2).slice(0, 40_000);
  const stats = join(root, 'src', 'stats');
  for (const file of readdirSync(stats)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    if (text.length >= 70_000) break;
    text += readFileSync(join(stats, file), 'utf8');
  }
  return text.slice(0, 70_000);
}

const prose = (
  "The gateway counts every prompt on a stream's path to its first byte, so the tokenizer's cost is paid per request. " +
  'Budget-fair evaluation gives each agent the same cases and the same token budget; we compare Best-of-N off and on, ' +
  'and report what each arm spent, call by call, next to what it scored on the very same cases.'
).slice(0, 300);
const code = codeText();
const texts = { [`JSON/code (${code.length / 1000} KB)`]: code, [`prose (${prose.length} chars)`]: prose };

if (values.variant !== undefined) {
  // A child: one encoder, one text, in a process of its own. Both encoders are closures of the same
  // functions, whose type feedback and optimised code V8 can share, so timing both in one process
  // would let each one's warm-up shape the other's code.
  const encoder = values.variant === 'fast path' ? o200k() : createBpeEncoder(readTiktokenFile(vocabulary), O200K_SPLIT);
  // Through UTF-8 and back: a flat string, as a request body parsed off the network is (a slice or a
  // concatenation is read through an indirection on every charCodeAt).
  const text = Buffer.from(texts[values.text], 'utf8').toString('utf8');
  // Calls per batch: about 50 ms of work per batch on either text.
  const calls = Math.max(1, Math.round(50_000 / (text.length / 20)));
  for (let i = 0; i < calls; i += 1) encoder.count(text); // warm-up: JIT and piece caches
  const batches = [];
  for (let round = 0; round < Number(values.rounds); round += 1) {
    const t = performance.now();
    for (let i = 0; i < calls; i += 1) encoder.count(text);
    batches.push(((performance.now() - t) * 1000) / calls);
  }
  batches.sort((a, b) => a - b);
  process.stdout.write(`${JSON.stringify({ tokens: encoder.count(text), min: batches[0], median: batches[Math.floor(batches.length / 2)] })}\n`);
} else {
  const report = { when: new Date().toISOString(), rounds: Number(values.rounds), texts: {} };
  for (const name of Object.keys(texts)) {
    const perCall = {};
    for (const variant of ['regex only', 'fast path']) {
      const args = [fileURLToPath(import.meta.url), '--variant', variant, '--text', name, '--rounds', String(values.rounds)];
      const row = JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' }));
      perCall[variant] = row;
      process.stdout.write(
        `${name.padEnd(18)} ${variant.padEnd(10)} ${String(row.tokens).padStart(6)} tokens  min ${round1(row.min)} µs/call  median ${round1(row.median)} µs/call\n`,
      );
    }
    if (perCall['fast path'].tokens !== perCall['regex only'].tokens) throw new Error(`${name}: the encoders disagree`);
    process.stdout.write(`${name.padEnd(18)} speed-up (min) ${round2(perCall['regex only'].min / perCall['fast path'].min)}×\n`);
    report.texts[name] = { tokens: perCall['fast path'].tokens, regexOnlyUs: round1(perCall['regex only'].min), fastPathUs: round1(perCall['fast path'].min), speedUp: round2(perCall['regex only'].min / perCall['fast path'].min) };
  }
  mkdirSync(join(here, 'out'), { recursive: true });
  writeFileSync(join(here, 'out', 'tokenizer-prose.json'), `${JSON.stringify(report, null, 2)}\n`);
}

function round1(x) {
  return Math.round(x * 10) / 10;
}
function round2(x) {
  return Math.round(x * 100) / 100;
}
