/** `memory search | export | show | conflicts`: reading the store (export also writes SKILL.md files). */
import { resolve } from 'node:path';
import { IsobudgetError } from '../../core/errors.js';
import { listConflicts } from '../../memory/conflicts.js';
import { effectiveWeight } from '../../memory/decay.js';
import { MEMORY_TYPES, type MemoryType } from '../../memory/record.js';
import { renderConflicts, renderRecord, renderSearch } from '../../memory/render.js';
import { retrieve, seedShape } from '../../memory/retrieval.js';
import { storePolicy } from '../../memory/store/open.js';
import { exportSkills } from '../../skills-export/write-skills.js';
import { intOption, parseCommandArgs } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { COMMON, MEMORY_USAGE, type MemoryAction } from './memory-common.js';
import { JSON_OPTION, SKILLS_DIR_OPTION } from '../common-options.js';
import type { StringOption } from '../args.js';

const TYPE_OPTION = { type: 'string', value: 'T,…', help: `only records of these types: ${MEMORY_TYPES.join(', ')}`, fallback: 'every type', example: 'negative_pattern' } as const satisfies StringOption;

function parseTypes(value: string | undefined): MemoryType[] | undefined {
  if (value === undefined) return undefined;
  const types = value.split(',').map((t) => t.trim());
  const unknown = types.filter((t) => !MEMORY_TYPES.includes(t as MemoryType));
  if (unknown.length) throw new IsobudgetError('usage', `--type: unknown type ${unknown.join(', ')}; use ${MEMORY_TYPES.join(', ')}`);
  return types as MemoryType[];
}

const search: MemoryAction = async (argv, io, { deps, open }) => {
  const { values, positionals } = parseCommandArgs('memory search', argv, { ...COMMON, type: TYPE_OPTION, all: { type: 'boolean', help: 'include retired and superseded records' }, limit: { type: 'string', value: 'N', help: 'at most N records', fallback: 'all', example: '10' }, json: JSON_OPTION } as const, MEMORY_USAGE);
  const store = open(values.store);
  try {
    const limit = intOption('limit', values.limit);
    const types = parseTypes(values.type);
    const results = retrieve(await store.listRecords(), { now: deps.now(), policy: await storePolicy(store), query: positionals.join(' '), includeInactive: values.all === true, ...(types ? { types } : {}), ...(limit === undefined ? {} : { limit }) });
    io.stdout.write(values.json ? `${JSON.stringify(results.map(seedShape), null, 2)}\n` : renderSearch(results));
  } finally {
    store.close();
  }
  return EXIT.ok;
};

const exportAction: MemoryAction = async (argv, io, { deps, open }) => {
  const { values, positionals } = parseCommandArgs('memory export', argv, { ...COMMON, skills: SKILLS_DIR_OPTION, json: JSON_OPTION, type: TYPE_OPTION } as const, MEMORY_USAGE);
  const store = open(values.store);
  try {
    const records = await store.listRecords();
    if (values.skills !== undefined) {
      const dir = resolve(io.cwd, values.skills);
      const result = exportSkills(records, dir);
      for (const file of result.written) io.stdout.write(`wrote ${file}\n`);
      for (const file of result.removed) io.stdout.write(`removed ${file} (no longer a live skill)\n`);
      io.stdout.write(`${result.written.length} written, ${result.unchanged.length} unchanged, ${result.removed.length} removed in ${dir}\n`);
      if (values.json !== true) return EXIT.ok;
    }
    const types = parseTypes(values.type);
    const results = retrieve(records, { now: deps.now(), policy: await storePolicy(store), query: positionals.join(' '), ...(types ? { types } : {}) });
    // JSON Lines by default (one record per line, what an agent's loader reads); --json: one array.
    io.stdout.write(values.json ? `${JSON.stringify(results.map(seedShape), null, 2)}\n` : results.map((r) => `${JSON.stringify(seedShape(r))}\n`).join(''));
  } finally {
    store.close();
  }
  return EXIT.ok;
};

const show: MemoryAction = async (argv, io, { deps, open }) => {
  const { values, positionals } = parseCommandArgs('memory show', argv, { ...COMMON, diff: { type: 'boolean', help: 'show each version\'s diff against the one before' }, json: JSON_OPTION } as const, MEMORY_USAGE);
  const id = positionals[0];
  if (!id) throw new IsobudgetError('usage', 'memory show: pass a MEMORY_ID', { hint: MEMORY_USAGE });
  const store = open(values.store);
  try {
    const versions = await store.listVersions(id);
    const head = versions[versions.length - 1]?.record;
    if (!head) throw new IsobudgetError('not_found', `no memory record ${id}`, { hint: 'isobudget memory search --all lists every record' });
    if (values.json) io.stdout.write(`${JSON.stringify(versions, null, 2)}\n`);
    else io.stdout.write(renderRecord(head, versions, { diff: values.diff === true, weight: effectiveWeight(head, deps.now(), await storePolicy(store)) }));
  } finally {
    store.close();
  }
  return EXIT.ok;
};

const conflicts: MemoryAction = async (argv, io, { open }) => {
  const { values } = parseCommandArgs('memory conflicts', argv, { ...COMMON, json: JSON_OPTION } as const, MEMORY_USAGE);
  const store = open(values.store);
  try {
    const found = listConflicts(await store.listRecords());
    io.stdout.write(values.json ? `${JSON.stringify(found.map((c) => ({ subject: c.subject, positive: c.positive.map((r) => r.memory_id), negative: c.negative.map((r) => r.memory_id) })), null, 2)}\n` : renderConflicts(found));
  } finally {
    store.close();
  }
  return EXIT.ok;
};

export const readActions: Record<string, MemoryAction> = { search, export: exportAction, show, conflicts };
