/**
 * The runs the viewer shows, read from a runs folder and cached by the files' size and
 * modification time: a page of a 4,000-case run does not re-read its ledger, and a run that
 * is still being written is re-read as it grows. A run that cannot be read is shown as
 * broken with the reason — it never takes the server down.
 */
import { lstatSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadRun } from '../analysis/load-run.js';
import type { Manifest } from '../ledger/manifest.js';
import { readJsonl } from '../ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../ledger/records.js';
import { readJsonFile, runPaths } from '../ledger/run-dir.js';
import { inspectRunDir, listRunDirs } from '../ledger/run-listing.js';
import { summarizeRun } from '../ledger/run-summary.js';
import { loadReportInput } from '../report/html/load-report-input.js';
import type { ReportInput } from '../report/html/render-report.js';
import type { VerdictRecord } from '../verdict/record.js';
import { verdictForRun } from '../verdict/verdict-for-run.js';
import { armRoles, gridRows, type ArmRoles, type GridRow } from './case-grid.js';
import { runRow, type RunRow } from './run-rows.js';

/** Everything a Run, case or compare screen needs of one run. */
export interface RunView {
  id: string;
  dir: string;
  manifest: Manifest;
  results: readonly ResultRecord[];
  verdict: VerdictRecord;
  report: ReportInput;
  rows: GridRow[];
  roles: ArmRoles;
  /** Set when the verdict was decided now (no verdict.json yet): the run is still running, or was interrupted. */
  provisional: boolean;
}

export type RunLoad = { ok: true; run: RunView } | { ok: false; id: string; broken: string };

/** A file's identity for the cache: size and mtime, or 'absent'. */
function stamp(file: string): string {
  const stat = statSync(file, { throwIfNoEntry: false });
  return stat === undefined ? 'absent' : `${stat.size}:${stat.mtimeMs}`;
}

/** The ledger files a reader opens; one that is not a regular file (a FIFO would block a read for ever) makes the run broken. */
const READ_FILES = ['manifest.json', 'calls.jsonl', 'results.jsonl', 'verdict.json', 'interrupted-calls.jsonl'];

function irregular(dir: string): string | undefined {
  for (const name of READ_FILES) {
    const stat = lstatSync(join(dir, name), { throwIfNoEntry: false });
    if (stat !== undefined && !stat.isFile()) return `${name} is not a regular file`;
  }
  return undefined;
}

export class RunSource {
  private readonly summaries = new Map<string, { key: string; summary: RunRow }>();
  private readonly views = new Map<string, { key: string; load: RunLoad }>();
  private readonly calls = new Map<string, { key: string; calls: CallRecord[] }>();

  /** `extra`: more folders of runs (the team runs' snapshots); a run id is looked up in `runsDir` first. */
  constructor(readonly runsDir: string, private readonly cwd: string, private readonly extra: readonly string[] = []) {}

  /** Where the runs are, as the screens name it. */
  get label(): string {
    return [this.runsDir, ...this.extra.map(() => 'the team database')].join(' and ');
  }

  /** Called before each screen: a source that mirrors another store brings it up to date. */
  beforeRead: () => Promise<void> = async () => {};

  /** Every run of the folder, newest first. */
  list(now = new Date()): RunRow[] {
    const seenIds = new Set<string>();
    const entries = [this.runsDir, ...this.extra].flatMap((dir) => listRunDirs(dir)).filter((entry) => !seenIds.has(entry.id) && seenIds.add(entry.id) !== undefined);
    const runs = entries.map((entry) => {
      const odd = irregular(entry.dir);
      if (odd !== undefined) return brokenRow(entry.id, entry.dir, odd, entry.modifiedMs, now);
      const key = `${stamp(join(entry.dir, 'manifest.json'))}|${stamp(join(entry.dir, 'calls.jsonl'))}|${stamp(join(entry.dir, 'results.jsonl'))}|${stamp(join(entry.dir, 'verdict.json'))}`;
      const cached = this.summaries.get(entry.id);
      if (cached?.key === key) return { ...cached.summary, age_seconds: ageSeconds(cached.summary, entry.modifiedMs, now) };
      const summary = runRow(summarizeRun(entry, now), entry.manifest, this.cwd);
      this.summaries.set(entry.id, { key, summary });
      return summary;
    });
    return runs.sort((a, b) => a.age_seconds - b.age_seconds || b.id.localeCompare(a.id));
  }

  /** The run named `id` (a directory of the runs folder: never a path from the URL). */
  load(id: string): RunLoad | undefined {
    if (id.includes('/') || id.includes('\\') || id === '.' || id === '..') return undefined;
    const entry = [this.runsDir, ...this.extra].map((dir) => inspectRunDir(join(dir, id), id)).find((found) => found !== undefined);
    if (!entry) return undefined;
    const odd = irregular(entry.dir);
    if (odd !== undefined) return { ok: false, id, broken: odd };
    if (entry.broken !== undefined || !entry.manifest) return { ok: false, id, broken: entry.broken ?? 'no manifest' };
    const paths = runPaths(entry.dir);
    const key = `${stamp(paths.manifest)}|${stamp(paths.results)}|${stamp(paths.verdict)}`;
    const cached = this.views.get(id);
    if (cached?.key === key) return cached.load;
    let load: RunLoad;
    try {
      load = { ok: true, run: this.read(id, entry.dir) };
    } catch (error) {
      load = { ok: false, id, broken: error instanceof Error ? error.message : String(error) };
    }
    this.views.set(id, { key, load });
    return load;
  }

  /** The run's call records (every attempt), cached like the run. */
  callsOf(run: RunView): CallRecord[] {
    const file = runPaths(run.dir).calls;
    const key = stamp(file);
    const cached = this.calls.get(run.id);
    if (cached?.key === key) return cached.calls;
    const calls = key === 'absent' ? [] : readJsonl<CallRecord>(file, { requireSchemaVersion: true }).records;
    this.calls.set(run.id, { key, calls });
    return calls;
  }

  private read(id: string, dir: string): RunView {
    const loaded = loadRun(dir);
    const paths = runPaths(dir);
    const decided = statSync(paths.verdict, { throwIfNoEntry: false }) !== undefined;
    const verdict = decided ? readJsonFile<VerdictRecord>(paths.verdict, 'verdict.json') : verdictForRun(dir, undefined, false, {}, loaded);
    const report = loadReportInput(dir, verdict, new Date(), loaded);
    const inputs = new Map([...report.texts].map(([caseId, text]) => [caseId, text.input]));
    return {
      id, dir, manifest: loaded.manifest, results: report.results, verdict, report,
      rows: gridRows(report.results.filter((r) => r.split !== 'regression'), inputs),
      roles: armRoles(loaded.manifest.arms),
      provisional: !decided,
    };
  }
}

function ageSeconds(summary: RunRow, modifiedMs: number, now: Date): number {
  const started = summary.created_at === null ? modifiedMs : Date.parse(summary.created_at);
  return Math.max(0, Math.round((now.getTime() - started) / 1000));
}

function brokenRow(id: string, dir: string, broken: string, modifiedMs: number, now: Date): RunRow {
  return {
    id, dir, experiment: null, status: 'broken', broken, split: null, verdict: null, cases: null, tokens: 0, calls_missing_usage: 0, cost_usd: null, calls_unpriced: 0, calls: 0,
    ledger_error: null, created_at: null, age_seconds: Math.max(0, Math.round((now.getTime() - modifiedMs) / 1000)), tokensPerSuccess: null, progress: '—', resumePath: dir,
  };
}
