#!/usr/bin/env node
/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self time per function, self time
 * per file/package, and inclusive (total) time of chosen functions.
 *
 *   node bench/profile-summary.mjs PROFILE.cpuprofile [--top 30] [--focus name1,name2]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '30' }, focus: { type: 'string', default: '' } } });
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'));
const top = Number(values.top);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

// Sample time per node.
const selfUs = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i += 1) {
  const dt = deltas[i + 1] ?? 0;
  selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + dt);
}
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);

const short = (url) => {
  if (!url) return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 13);
  const dist = url.lastIndexOf('/dist/');
  if (dist >= 0) return url.slice(dist + 1);
  return url.replace(/^file:\/\//, '').replace(/^node:/, 'node:');
};
const label = (cf) => `${cf.functionName || '(anonymous)'} ${short(cf.url)}:${cf.lineNumber + 1}`;
const pkg = (cf) => {
  const url = short(cf.url);
  if (url === '(native)') return cf.functionName.startsWith('(') ? cf.functionName : '(native)';
  if (url.startsWith('node:')) return url;
  if (url.startsWith('dist/')) return url;
  const parts = url.split('/');
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
};

const selfByFn = new Map();
const selfByPkg = new Map();
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  const key = label(node.callFrame);
  selfByFn.set(key, (selfByFn.get(key) ?? 0) + us);
  const p = pkg(node.callFrame);
  selfByPkg.set(p, (selfByPkg.get(p) ?? 0) + us);
}

// Inclusive time per function name (counted once per sample even if recursive).
const inclusive = new Map();
for (let i = 0; i < profile.samples.length; i += 1) {
  const dt = deltas[i + 1] ?? 0;
  const seen = new Set();
  let id = profile.samples[i];
  while (id !== undefined) {
    const cf = byId.get(id).callFrame;
    const key = label(cf);
    if (!seen.has(key)) {
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
    }
    id = parent.get(id);
  }
}

const fmt = (us) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((us / totalUs) * 100).toFixed(1).padStart(5)}%`;
console.log(`total sampled: ${(totalUs / 1e6).toFixed(2)} s`);
console.log(`\n== self time by function (top ${top})`);
for (const [k, us] of [...selfByFn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${fmt(us)}  ${k}`);
console.log(`\n== self time by package / file (top ${top})`);
for (const [k, us] of [...selfByPkg].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${fmt(us)}  ${k}`);
console.log(`\n== inclusive time (top ${top})`);
for (const [k, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${fmt(us)}  ${k}`);
if (values.focus) {
  console.log('\n== inclusive time of focus functions');
  const focus = values.focus.split(',');
  for (const [k, us] of [...inclusive].sort((a, b) => b[1] - a[1])) if (focus.some((f) => k.startsWith(`${f} `))) console.log(`${fmt(us)}  ${k}`);
}
