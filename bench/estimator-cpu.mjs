#!/usr/bin/env node
/**
 * CPU of the gateway's prompt estimate per call on Claude Code-shaped bodies (issue 20 item 4:
 * the estimator runs on every call of ~70 KB bodies, so counting billable content must cost
 * about what counting the whole JSON text did).
 *
 *   node bench/estimator-cpu.mjs [--turns 400] [--quiet]
 *
 * 8 sessions, each with its own ~48 KB system prompt and the fixtures' ~20 tool definitions,
 * one user turn added per call (the bodies of bench/gateway-real-bodies.mjs), each body parsed
 * once. Two estimators run on the same bodies, each with its own warm chunk-count cache state:
 * - json: what the gateway counted before — the whole JSON text as one string, through the
 *   same memo and chunk-count cache, its fresh chunks counted (the code before this change,
 *   which also compared chunks with the key's last body, measured 541–635 µs here);
 * - billable: what it does now — billableContent (the walk over the parsed body) + bodyShape +
 *   measureParts of the billable strings (memo + the same chunk-count cache) and its fresh
 *   pieces counted.
 * Each is timed with process.cpuUsage over all turns, interleaved per turn (the same load for
 * both), after a warm-up. Writes bench/out/estimator-cpu.json. Needs dist/ (npm run build).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
const { values } = parseArgs({ strict: false, options: { turns: { type: 'string', default: '400' }, quiet: { type: 'boolean', default: false } } });
const TURNS = Number(values.turns);

const { measureParts, countFreshParts, forgetBodyCounts } = await import(join(dist, 'gateway/prompt-estimate.js'));
const { billableContent } = await import(join(dist, 'estimate/billable-content.js'));
const { bodyShape } = await import(join(dist, 'estimate/body-shape.js'));

const FIXTURES = process.env.ISOBUDGET_SHARED ? join(process.env.ISOBUDGET_SHARED, 'fixtures/real-clients') : '/work/shared/fixtures/real-clients';
const fixtureTools = readdirSync(FIXTURES)
  .filter((f) => f.startsWith('claude-code') && f.endsWith('.jsonl'))
  .flatMap((f) => readFileSync(join(FIXTURES, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).body?.tools ?? []))
  .flat();
const byName = new Map(fixtureTools.map((tool) => [tool.name, tool]));
const tools = [...byName.values()];
for (let i = 0; tools.length < 20; i += 1) {
  const base = [...byName.values()][i % byName.size];
  tools.push({ ...base, name: `${base.name}_${i}`, description: `${base.description}\n(variant ${i})` });
}
const prose = readFileSync(join(here, '..', 'README.md'), 'utf8');
const systemFor = (session) => [
  { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
  { type: 'text', text: `Session ${session}.\n${(prose.slice(session * 997) + prose).repeat(4).slice(0, 48_000)}`, cache_control: { type: 'ephemeral' } },
];
const SESSIONS = 8;
const sessions = Array.from({ length: SESSIONS }, (_, i) => ({ system: systemFor(i), messages: [] }));
let seed = 11;
const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff;
const words = prose.split(/\s+/).filter(Boolean);
const sentence = (n) => Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(' ');
function nextTurn(session) {
  const s = sessions[session];
  s.messages.push({ role: 'user', content: [{ type: 'text', text: sentence(20 + Math.floor(random() * 200)) }] });
  const text = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 4096, system: s.system, tools, messages: s.messages.slice(-12) });
  s.messages.push({ role: 'assistant', content: [{ type: 'text', text: sentence(10 + Math.floor(random() * 60)) }] });
  return text;
}

const cpu = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};
async function json(text, session) {
  return countFreshParts(measureParts([text], `json-${session}`));
}
async function billable(body, session) {
  const content = billableContent('anthropic-messages', body);
  bodyShape({ protocol: 'anthropic-messages', parts: content.parts, messages: content.messages, tools: content.tools, images: content.images });
  return countFreshParts(measureParts(content.parts, `billable-${session}`));
}

forgetBodyCounts();
const spent = { json: 0, billable: 0 };
let bytes = 0;
const WARM = 2 * SESSIONS;
for (let turn = 0; turn < TURNS + WARM; turn += 1) {
  const session = turn % SESSIONS;
  const text = nextTurn(session);
  const body = JSON.parse(text);
  const order = turn % 2 === 0 ? ['json', 'billable'] : ['billable', 'json'];
  for (const which of order) {
    const start = cpu();
    await (which === 'json' ? json(text, session) : billable(body, session));
    if (turn >= WARM) spent[which] += cpu() - start;
  }
  if (turn >= WARM) bytes += text.length;
}
const result = {
  turns: TURNS,
  mean_body_kb: Math.round(bytes / TURNS / 1024),
  json_us_per_call: Math.round(spent.json / TURNS),
  billable_us_per_call: Math.round(spent.billable / TURNS),
  ratio: Math.round((spent.billable / spent.json) * 100) / 100,
};
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(join(here, 'out', 'estimator-cpu.json'), `${JSON.stringify(result, null, 2)}\n`);
if (!values.quiet) console.log(`estimator CPU per call on ${result.mean_body_kb} KB bodies (${TURNS} turns): whole JSON ${result.json_us_per_call} µs, billable content ${result.billable_us_per_call} µs (${result.ratio}×)`);
