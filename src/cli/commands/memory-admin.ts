/** `memory decay | rollback | retire | config`: the actions that change records by hand or by schedule. */
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { IsobudgetError } from '../../core/errors.js';
import { effectiveWeight, planDecayRetirements } from '../../memory/decay.js';
import type { MemoryPolicy } from '../../memory/policy.js';
import { planRetire } from '../../memory/retire.js';
import { planRollback } from '../../memory/rollback.js';
import { storePolicy } from '../../memory/store/open.js';
import { withConflictRetry } from '../../memory/store/spec.js';
import { exportSkills } from '../../skills-export/write-skills.js';
import { intOption, numberOption, parseCommandArgs } from '../args.js';
import { NOTE_OPTION, REVIEWER_OPTION, SKILLS_DIR_OPTION } from '../common-options.js';
import { DEFAULT_MEMORY_POLICY } from '../../memory/policy.js';
import { EXIT } from '../exit-codes.js';
import { COMMON, MEMORY_USAGE, type MemoryAction } from './memory-common.js';

/** Who is acting when --reviewer is not given: the OS account (not an env var; env is read in config/ only). */
export function defaultReviewer(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}

const decay: MemoryAction = async (argv, io, { deps, open }) => {
  const { values } = parseCommandArgs('memory decay', argv, { ...COMMON, apply: { type: 'boolean', help: 'retire what decayed below the threshold (without it: only say what would be)' } } as const, MEMORY_USAGE);
  const store = open(values.store);
  try {
    const now = deps.now();
    const policy = await storePolicy(store);
    const active = await store.listRecords({ statuses: ['active'] });
    io.stdout.write(`half-life ${policy.halfLifeDays} days; records below weight ${policy.retireBelow} are no longer retrieved\n`);
    for (const record of active) io.stdout.write(`  ${record.memory_id}  ${record.type}  weight ${effectiveWeight(record, now, policy).toFixed(3)}  (last confirmed ${record.confirmed_at})\n`);
    if (values.apply) {
      const writes = await withConflictRetry(async () => {
        const planned = planDecayRetirements(await store.listRecords({ statuses: ['active'] }), now, policy);
        await store.commit({ records: planned });
        return planned;
      });
      for (const { record } of writes) io.stdout.write(`retired ${record.memory_id}: ${record.changelog}\n`);
      io.stdout.write(`${writes.length} record(s) retired\n`);
    }
  } finally {
    store.close();
  }
  return EXIT.ok;
};

const rollback: MemoryAction = async (argv, io, { deps, open }) => {
  const { values, positionals } = parseCommandArgs('memory rollback', argv, { ...COMMON, to: { type: 'string', value: 'VERSION', help: 'the version to go back to', fallback: 'the one before the current', example: '2' }, note: NOTE_OPTION, reviewer: REVIEWER_OPTION, skills: SKILLS_DIR_OPTION } as const, MEMORY_USAGE);
  const id = positionals[0];
  if (!id) throw new IsobudgetError('usage', 'memory rollback: pass a MEMORY_ID', { hint: MEMORY_USAGE });
  const to = intOption('to', values.to);
  const store = open(values.store);
  try {
    const message = await withConflictRetry(async () => {
      const versions = await store.listVersions(id);
      if (versions.length === 0) throw new IsobudgetError('not_found', `no memory record ${id}`);
      const planned = planRollback(versions, deps.now(), { by: values.reviewer ?? defaultReviewer(), ...(values.note ? { note: values.note } : {}), ...(to === undefined ? {} : { toVersion: to }) });
      await store.commit({ records: [planned.write] });
      return planned.message;
    });
    io.stdout.write(`${message}\n`);
    if (values.skills !== undefined) {
      const result = exportSkills(await store.listRecords(), resolve(io.cwd, values.skills));
      io.stdout.write(`skills re-exported: ${result.written.length} written, ${result.removed.length} removed\n`);
    }
  } finally {
    store.close();
  }
  return EXIT.ok;
};

const retire: MemoryAction = async (argv, io, { deps, open }) => {
  const { values, positionals } = parseCommandArgs('memory retire', argv, { ...COMMON, note: NOTE_OPTION, reviewer: REVIEWER_OPTION } as const, MEMORY_USAGE);
  const id = positionals[0];
  if (!id) throw new IsobudgetError('usage', 'memory retire: pass a MEMORY_ID', { hint: MEMORY_USAGE });
  const store = open(values.store);
  try {
    const write = await withConflictRetry(async () => {
      const record = await store.getRecord(id);
      if (!record) throw new IsobudgetError('not_found', `no memory record ${id}`);
      const planned = planRetire(record, values.reviewer ?? defaultReviewer(), values.note ?? null, deps.now());
      await store.commit({ records: [planned] });
      return planned;
    });
    io.stdout.write(`${id} v${write.record.version}: ${write.record.changelog}\n`);
  } finally {
    store.close();
  }
  return EXIT.ok;
};

const FLAGS: Record<string, keyof MemoryPolicy> = { 'half-life-days': 'halfLifeDays', 'retire-below': 'retireBelow', 'freeze-below': 'freezeBelow', penalty: 'contradictionPenalty', 'learning-weight': 'learningWeight' };

const config: MemoryAction = async (argv, io, { open }) => {
  const { values } = parseCommandArgs('memory config', argv, {
    ...COMMON,
    'half-life-days': { type: 'string', value: 'N', help: 'days for a record\'s weight to halve', fallback: `${DEFAULT_MEMORY_POLICY.halfLifeDays}`, example: '60' },
    'retire-below': { type: 'string', value: 'X', help: 'records below this weight are no longer retrieved (0–1)', fallback: `${DEFAULT_MEMORY_POLICY.retireBelow}`, example: '0.1' },
    'freeze-below': { type: 'string', value: 'X', help: 'a contradiction that pushes a record below this weight freezes it (0–1)', fallback: `${DEFAULT_MEMORY_POLICY.freezeBelow}`, example: '0.2' },
    penalty: { type: 'string', value: 'X', help: 'factor applied to a record\'s weight by one contradicting same-budget run (0–1)', fallback: `${DEFAULT_MEMORY_POLICY.contradictionPenalty}`, example: '0.25' },
    'learning-weight': { type: 'string', value: 'X', help: 'starting weight of an imported .learnings/ note (0–1)', fallback: `${DEFAULT_MEMORY_POLICY.learningWeight}`, example: '0.3' },
  } as const, MEMORY_USAGE);
  const settings: Record<string, string> = {};
  for (const [flag, key] of Object.entries(FLAGS)) {
    const value = numberOption(flag, values[flag as keyof typeof values] as string | undefined);
    if (value === undefined) continue;
    const valid = key === 'halfLifeDays' ? value > 0 : value >= 0 && value <= 1;
    if (!valid) throw new IsobudgetError('usage', `--${flag} must be ${key === 'halfLifeDays' ? 'positive' : 'between 0 and 1'}, got ${value}`);
    settings[key] = String(value);
  }
  const store = open(values.store);
  try {
    if (Object.keys(settings).length > 0) await store.commit({ settings });
    const policy = await storePolicy(store);
    for (const [flag, key] of Object.entries(FLAGS)) io.stdout.write(`${flag}: ${policy[key]}\n`);
  } finally {
    store.close();
  }
  return EXIT.ok;
};

export const adminActions: Record<string, MemoryAction> = { decay, rollback, retire, config };
