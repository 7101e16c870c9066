#!/usr/bin/env node
/**
 * Tokenizer on adversarial long inputs (issue 16 item 7): 1 MB (UTF-8) of one repeated letter,
 * of digits, of CJK without punctuation and of base64, counted with the o200k encoder in
 * dist/. Before the bucket merge (the quadratic scan) 20,000 letters took ~240 ms and 20,000 CJK
 * characters ~1.7 s on this machine; target ≤ 200 ms per MB.
 *
 *   node bench/tokenizer-long-pieces.mjs [--rounds 5] [--quiet]
 *
 * Each input is counted --rounds times; min and median are printed (the min is the figure
 * least disturbed by other load on the machine). Writes bench/out/tokenizer-long-pieces.json.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({ strict: false, options: { rounds: { type: 'string', default: '5' }, quiet: { type: 'boolean', default: false }, name: { type: 'string', default: 'tokenizer-long-pieces' } } });
const { o200k } = await import(join(here, '..', 'dist', 'core', 'bpe', 'o200k.js'));

const MB = 1 << 20;
const TARGET_MS = 200;
let state = 7;
const random = () => (state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff;
const fill = (unit, bytes) => {
  let out = unit.repeat(Math.floor(bytes / Buffer.byteLength(unit)));
  while (Buffer.byteLength(out) > bytes) out = out.slice(0, -1);
  return out;
};
const inputs = {
  'letter (1 MB)': 'a'.repeat(MB),
  'digits (1 MB)': Array.from({ length: MB }, () => String(Math.floor(random() * 10))).join(''),
  'CJK (1 MB)': fill('预算公平的评测比较同样的案例同样的预算自我进化的智能体是否真的变聪明了还是只是花得更多', MB),
  'base64 (1 MB)': randomBytes((MB * 3) / 4).toString('base64'),
  // Harder than the targets: 1 M characters of random CJK (3 MB of UTF-8, many rare characters).
  'random CJK (1 M chars, 3 MB)': Array.from({ length: MB }, () => String.fromCharCode(0x4e00 + Math.floor(random() * 20_000))).join(''),
};

const started = performance.now();
o200k().count('load');
const loadMs = performance.now() - started;
const rows = [];
for (const [name, text] of Object.entries(inputs)) {
  const times = [];
  let tokens = 0;
  for (let round = 0; round < Number(values.rounds); round += 1) {
    const t = performance.now();
    tokens = o200k().count(text);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const row = { input: name, bytes: Buffer.byteLength(text), tokens, min_ms: round2(times[0]), median_ms: round2(times[Math.floor(times.length / 2)]) };
  row.pass = !name.endsWith('3 MB)') ? row.min_ms <= TARGET_MS : undefined;
  rows.push(row);
  if (!values.quiet) process.stdout.write(`${name.padEnd(30)} ${String(row.tokens).padStart(9)} tokens  min ${row.min_ms} ms  median ${row.median_ms} ms\n`);
}
const report = { name: values.name, load_average: loadavg(), tokenizer_load_ms: round2(loadMs), target_ms: TARGET_MS, rows, pass: rows.every((r) => r.pass !== false) };
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(join(here, 'out', `${values.name}.json`), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`tokenizer-long-pieces: load ${report.tokenizer_load_ms} ms; every 1 MB input ≤ ${TARGET_MS} ms (min of ${values.rounds}): ${report.pass ? 'met' : 'MISSED'}\n`);

function round2(value) {
  return Math.round(value * 100) / 100;
}
