/**
 * Reads what a run report shows from a run directory: verdict.json (decided now if it is
 * missing), the manifest, results.jsonl, and the case inputs and expected answers from the
 * datasets the manifest names — only when a file still has the hash the run recorded, so the
 * report never pairs outputs with different inputs.
 */
import { existsSync } from 'node:fs';
import { MAX_DATA_FILE_BYTES, readInputFileSync } from '../../core/input-file.js';
import { sha256 } from '../../core/hash.js';
import { loadRun, type LoadedRun } from '../../analysis/load-run.js';
import type { Manifest } from '../../ledger/manifest.js';
import { readJsonFile, runPaths } from '../../ledger/run-dir.js';
import type { VerdictRecord } from '../../verdict/record.js';
import { sequentialView } from '../../verdict/sequential-verdict.js';
import { verdictForRun } from '../../verdict/verdict-for-run.js';
import { applyLedgerIntegrity } from '../../verdict/integrity-rule.js';
import type { CaseText } from './case-data.js';
import type { ReportInput } from './render-report.js';

/** `run`: the directory's manifest and results when the caller has read them already. */
export function loadReportInput(dir: string, verdict?: VerdictRecord, now = new Date(), run?: LoadedRun): ReportInput {
  const paths = runPaths(dir);
  const loaded = run ?? loadRun(dir);
  const { manifest } = loaded;
  // A sequential run's charts and case table show the cases its verdict read (not those still in flight at the stop).
  const results = sequentialView(loaded)?.results ?? loaded.results;
  const decided = verdict ?? (existsSync(paths.verdict) ? applyLedgerIntegrity(readJsonFile<VerdictRecord>(paths.verdict, 'verdict.json'), loaded.integrity) : verdictForRun(dir, undefined, true, {}, run));
  const { texts, notes } = caseTexts(manifest, new Set(results.map((r) => r.split)));
  return { verdict: decided, manifest, results, texts, notes, generatedAt: now };
}

function caseTexts(manifest: Manifest, splits: ReadonlySet<string>): { texts: Map<string, CaseText>; notes: string[] } {
  const texts = new Map<string, CaseText>();
  const notes: string[] = [];
  for (const [name, dataset] of Object.entries(manifest.datasets)) {
    if (!splits.has(name)) continue;
    if (!existsSync(dataset.path)) {
      notes.push(`inputs of the ${name} cases are not shown: ${dataset.path} is gone`);
      continue;
    }
    let bytes: Buffer;
    try {
      // A regular file of dataset size only: a path since replaced by a FIFO must not hang the report.
      bytes = readInputFileSync(dataset.path, { what: 'dataset file', code: 'dataset', maxBytes: MAX_DATA_FILE_BYTES });
    } catch (error) {
      notes.push(`inputs of the ${name} cases are not shown: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (sha256(bytes) !== dataset.sha256) {
      notes.push(`inputs of the ${name} cases are not shown: ${dataset.path} changed since the run (sha256 differs)`);
      continue;
    }
    for (const line of bytes.toString('utf8').split('\n')) {
      const row = parseLine(line);
      if (row) texts.set(row.id, row.text);
    }
  }
  return { texts, notes };
}

/** Tolerant: the run already validated these rows; a row it cannot read is just not shown. */
function parseLine(line: string): { id: string; text: CaseText } | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const row = value as Record<string, unknown>;
  const id = typeof row['id'] === 'string' || typeof row['id'] === 'number' ? String(row['id']) : undefined;
  if (id === undefined) return undefined;
  return { id, text: { input: inputOf(row), expected: show(row['expected'] ?? row['reference']) } };
}

function inputOf(row: Record<string, unknown>): string {
  if (typeof row['input'] === 'string') return row['input'];
  const messages = row['messages'];
  if (!Array.isArray(messages)) return '';
  return messages
    .filter((m): m is { role: unknown; content: unknown } => m !== null && typeof m === 'object')
    .map((m) => `${String(m.role)}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`)
    .join('\n');
}

function show(value: unknown): string {
  return value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
}
