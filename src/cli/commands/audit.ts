/** `isobudget audit --since 90d` — the direction audit over run and gateway ledgers. */
import { renameSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { auditLedgers } from '../../audit/audit.js';
import { defaultUnit, parseSince, type PeriodUnit } from '../../audit/periods.js';
import { readLedgers } from '../../audit/read-ledgers.js';
import { renderAuditHtml } from '../../audit/render-html.js';
import { renderAuditText } from '../../audit/render-text.js';
import { IsobudgetError } from '../../core/errors.js';
import { loadPricingFile } from '../../config/load-pricing-file.js';
import { buildPriceTable } from '../../pricing/build-table.js';
import { intOption, numberOption, parseCommandArgs } from '../args.js';
import { DB_READ_OPTION, GATE_OPTION, JSON_OPTION, PRICING_OPTION } from '../common-options.js';
import { requireTeamDatabase } from './team-db.js';
import type { AuditData } from '../../audit/ledger-rows.js';
import type { CliIO } from '../io.js';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';

const USAGE = `isobudget audit [--since 90d|12w|6m|1y|DATE] [--until DATE] [--runs DIR] [--gateway DIR]
       [--by month|week] [--budget B] [--html FILE] [--json] [--gate] [--pricing FILE] [--db URL]
  trends of mean output length, tokens per task, Best-of-N usage, retries per task and
  same-budget pass@1 over run ledgers (--runs, default ./runs) and gateway ledgers (--gateway:
  any *.jsonl of call records, e.g. ~/.isobudget/gateway/ledger); flags cost drift when tokens
  per task rise and pass@1 does not. --by defaults to week under 6 months, month beyond.
  Cost (USD) is shown beside tokens: recorded cost_usd, else the dated default prices (or --pricing FILE over them).
  exit codes with --gate: 0 no drift, 10 cost drift or not enough data to tell (the reason on
  stderr), 2 bad input`;

export const auditCommand: CommandSpec = {
  summary: 'direction audit: is the system getting better, or only more expensive? (trends, cost drift)',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('audit', argv, {
      since: { type: 'string', value: 'WHEN', help: 'start of the window: 90d, 12w, 6m, 1y or a date', fallback: '90d', example: '6m' },
      until: { type: 'string', value: 'DATE', help: 'end of the window', fallback: 'now', example: '2026-12-01' },
      runs: { type: 'string', value: 'DIR', help: 'run ledgers to read', fallback: 'runs', example: 'ci/runs' },
      gateway: { type: 'string', value: 'DIR', help: 'gateway ledgers to read (any *.jsonl of call records)', example: '~/.isobudget/gateway/ledger' },
      by: { type: 'string', value: 'UNIT', help: 'trend buckets: week or month', fallback: 'week under 6 months, else month', example: 'month' },
      budget: { type: 'string', value: 'B', help: 'only runs with this budget B (tokens)', fallback: 'every budget', example: '200000' },
      'min-change': { type: 'string', value: 'X', help: 'smallest relative change over the window that counts as a trend', fallback: '0.05', example: '0.1' },
      html: { type: 'string', value: 'FILE', help: 'also write the audit as an HTML page', example: 'audit.html' },
      json: JSON_OPTION,
      gate: { ...GATE_OPTION, help: 'exit 10 on cost drift or too little data to tell, 0 otherwise' },
      pricing: { ...PRICING_OPTION, help: 'model → USD per million tokens for calls without a recorded cost_usd, over the dated defaults' },
      db: { ...DB_READ_OPTION, help: 'every run\'s results and calls in the team database (PostgreSQL) instead of --runs/--gateway' },
    }, USAGE);
    if (positionals.length) throw new IsobudgetError('usage', `audit: unexpected argument '${positionals[0]}'`, { hint: USAGE });
    const until = values.until === undefined ? Date.now() : Date.parse(values.until);
    if (!Number.isFinite(until)) throw new IsobudgetError('usage', `--until must be a date, got '${values.until}'`);
    const since = parseSince(values.since ?? '90d', until);
    if (since === undefined || since >= until) throw new IsobudgetError('usage', `--since must be like 90d, 12w, 6m, 1y or a date before --until, got '${values.since}'`);
    const unit = parseUnit(values.by) ?? defaultUnit(since, until);
    const minChange = numberOption('min-change', values['min-change']);
    const pricingFile = values.pricing === undefined ? undefined : resolve(io.cwd, values.pricing);
    const prices = buildPriceTable({ file: pricingFile === undefined ? undefined : { path: pricingFile, prices: loadPricingFile(pricingFile) } });
    const data = values.db !== undefined
      ? await auditFromDatabase(values.db, io, since, until)
      : readLedgers({ runsDir: folderOption('runs', resolve(io.cwd, values.runs ?? 'runs')), gatewayDir: values.gateway === undefined ? undefined : folderOption('gateway', resolve(io.cwd, values.gateway)), since, until, prices });
    const result = auditLedgers(data, { since, until, unit, budget: intOption('budget', values.budget), ...(minChange === undefined ? {} : { minChange }) });
    io.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : renderAuditText(result));
    if (values.html !== undefined) {
      const file = resolve(io.cwd, values.html);
      const { html, warnings } = await renderAuditHtml(result);
      for (const warning of warnings) io.stderr.write(`warning: chart: ${warning}\n`);
      writeFileSync(`${file}.tmp-${process.pid}`, html);
      renameSync(`${file}.tmp-${process.pid}`, file);
      if (!values.json) io.stdout.write(`audit page: ${file}\n`);
    }
    if (!values.gate) return EXIT.ok;
    // A gate that cannot see a trend has not shown "no drift": it fails, and says why.
    if (result.drift.status === 'insufficient_data') {
      io.stderr.write(`audit --gate: not enough data to decide (${result.drift.reason}; ${result.sources.tasks} tasks from ${result.sources.runs} run ledgers and ${result.sources.gatewayFiles} gateway files between ${result.since.slice(0, 10)} and ${result.until.slice(0, 10)}); widen --since, or point --runs/--gateway at the ledgers\n`);
      return EXIT.notPromotable;
    }
    return result.drift.flagged ? EXIT.notPromotable : EXIT.ok;
  },
};

function parseUnit(value: string | undefined): PeriodUnit | undefined {
  if (value === undefined) return undefined;
  if (value === 'month' || value === 'week') return value;
  throw new IsobudgetError('usage', `--by must be month or week, got '${value}'`);
}

/** `--db URL`: every run's results and committed generate calls in the team database. */
async function auditFromDatabase(url: string, io: CliIO, since: number, until: number): Promise<AuditData> {
  const db = await requireTeamDatabase(url, io, 'audit', 4);
  try {
    const { readAuditFromDatabase } = await import('../../distributed/team-reads.js');
    return await readAuditFromDatabase(db, since, until);
  } finally {
    await db.end().catch(() => undefined);
  }
}

/** A folder the audit reads: missing is fine (nothing to read), anything but a folder is bad input. */
function folderOption(flag: string, dir: string): string {
  const stats = statSync(dir, { throwIfNoEntry: false });
  if (stats !== undefined && !stats.isDirectory()) {
    throw new IsobudgetError('usage', `--${flag} must name a folder of ledgers, not a file: ${dir}`, { hint: flag === 'runs' ? 'pass the runs folder (the --out of `isobudget run`), e.g. --runs runs' : 'pass the folder the gateway keeps its ledger in, e.g. --gateway ~/.isobudget/gateway/ledger' });
  }
  return dir;
}
