/** Writes `report.html` into a run directory (atomically: a reader never sees half a page). */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadedRun } from '../../analysis/load-run.js';
import type { VerdictRecord } from '../../verdict/record.js';
import { loadReportInput } from './load-report-input.js';
import { renderReport, type ReportInput } from './render-report.js';

export interface WrittenReport {
  file: string;
  bytes: number;
  warnings: string[];
}

export async function writeRunReport(dir: string, options: { verdict?: VerdictRecord; out?: string; run?: LoadedRun } = {}): Promise<WrittenReport> {
  return writeReportFile(options.out ?? join(dir, 'report.html'), loadReportInput(dir, options.verdict, new Date(), options.run));
}

export async function writeReportFile(file: string, input: ReportInput): Promise<WrittenReport> {
  const { html, warnings } = await renderReport(input);
  const temp = `${file}.tmp-${process.pid}`;
  writeFileSync(temp, html);
  renameSync(temp, file);
  return { file, bytes: Buffer.byteLength(html), warnings };
}
