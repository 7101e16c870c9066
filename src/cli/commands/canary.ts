/**
 * `isobudget canary assign` — deterministic sticky assignment of keys to the canary;
 * `isobudget canary analyze` — the four metrics per day and cumulative, and the decision.
 */
import { resolve } from 'node:path';
import { analyzeCanary } from '../../canary/analyze.js';
import { assignCanary, DEFAULT_SALT } from '../../canary/assign.js';
import { parseEvents } from '../../canary/events.js';
import { DEFAULT_POLICY, parsePolicy } from '../../canary/policy.js';
import { renderCanary } from '../../canary/render.js';
import { IsobudgetError } from '../../core/errors.js';
import { decodeUtf8, MAX_DATA_FILE_BYTES, readInputFileSync } from '../../core/input-file.js';
import { numberOption, parseCommandArgs, unknownSubcommand } from '../args.js';
import { GATE_OPTION, JSON_OPTION } from '../common-options.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import type { CommandSpec } from './spec.js';

const USAGE = `isobudget canary assign --fraction F (--key KEY … | --keys FILE) [--salt S] [--json]
  prints canary or control per key (sticky: same key + salt → same answer; raising F only adds keys)
isobudget canary analyze EVENTS.jsonl [--policy canary.yaml] [--json] [--gate]
  events: {"variant":"canary|control","timestamp":ISO,"passed":bool,"feedback":"negative|positive|neutral",
           "tokens":N,"latency_ms":N,"n":N,"budget":B,"case_id":"…"}   (passed or feedback required)
  decision: promote (after the policy's days, none breached), rollback (a P0 threshold breached), continue
  exit codes with --gate: 0 promote, 10 continue, 11 rollback, 2 bad input`;

export const canaryCommand: CommandSpec = {
  summary: 'canary: sticky assignment of users, and analysis of production events (continue / rollback / promote)',
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === undefined || sub === '--help' || sub === '-h') {
      io.stdout.write(`${USAGE}\n`);
      return sub === undefined ? EXIT.usage : EXIT.ok;
    }
    if (sub === 'assign') return assign(rest, io);
    if (sub === 'analyze') return analyze(rest, io);
    throw unknownSubcommand('canary', sub, ['assign', 'analyze'], USAGE);
  },
};

function assign(argv: string[], io: CliIO): number {
  const { values } = parseCommandArgs('canary assign', argv, {
    fraction: { type: 'string', value: 'F', help: 'share of keys in the canary (0–1, required)', example: '0.1' },
    key: { type: 'string', multiple: true, value: 'KEY', help: 'a user or tenant key to assign', example: 'user-42' },
    keys: { type: 'string', value: 'FILE', help: 'a file of keys, one per line', example: 'users.txt' },
    salt: { type: 'string', value: 'S', help: 'assignment salt (a new salt reshuffles everyone)', fallback: DEFAULT_SALT, example: 'canary-2026-12' },
    json: JSON_OPTION,
  }, USAGE);
  const fraction = numberOption('fraction', values.fraction);
  if (fraction === undefined || fraction < 0 || fraction > 1) throw new IsobudgetError('usage', 'canary assign: --fraction must be a number in [0, 1], e.g. 0.1', { hint: USAGE });
  const keys = [...(values.key ?? []), ...(values.keys === undefined ? [] : read(resolve(io.cwd, values.keys), 'keys file').split('\n').map((k) => k.trim()).filter(Boolean))];
  if (keys.length === 0) throw new IsobudgetError('usage', 'canary assign: pass --key KEY or --keys FILE', { hint: USAGE });
  const salt = values.salt ?? DEFAULT_SALT;
  const single = keys.length === 1;
  for (const key of keys) {
    const a = assignCanary(key, fraction, salt);
    if (values.json) io.stdout.write(`${JSON.stringify({ ...a, fraction, salt })}\n`);
    else io.stdout.write(single ? `${a.variant}\n` : `${key}\t${a.variant}\n`);
  }
  return EXIT.ok;
}

function analyze(argv: string[], io: CliIO): number {
  const { values, positionals } = parseCommandArgs('canary analyze', argv, {
    policy: { type: 'string', value: 'FILE', help: 'the canary policy (YAML): days, thresholds per metric', fallback: 'the built-in policy', example: 'canary.yaml' },
    json: JSON_OPTION,
    gate: { ...GATE_OPTION, help: 'exit code = decision: 0 promote, 10 continue, 11 rollback' },
  }, USAGE);
  const file = positionals[0];
  if (!file) throw new IsobudgetError('usage', 'canary analyze: pass EVENTS.jsonl', { hint: USAGE });
  const eventsFile = resolve(io.cwd, file);
  const policyFile = values.policy === undefined ? undefined : resolve(io.cwd, values.policy);
  const policy = policyFile ? parsePolicy(read(policyFile, 'policy'), policyFile) : DEFAULT_POLICY;
  const analysis = analyzeCanary(parseEvents(read(eventsFile, 'events file'), eventsFile), policy);
  io.stdout.write(values.json ? `${JSON.stringify(analysis, null, 2)}\n` : renderCanary(analysis));
  if (!values.gate) return EXIT.ok;
  return analysis.decision === 'promote' ? EXIT.ok : analysis.decision === 'rollback' ? EXIT.regression : EXIT.notPromotable;
}

function read(file: string, what: string): string {
  const options = { what, code: 'canary_file', maxBytes: MAX_DATA_FILE_BYTES };
  return decodeUtf8(readInputFileSync(file, options), file, options);
}
