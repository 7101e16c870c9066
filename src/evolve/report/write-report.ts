/** Writes the loop's report.html atomically; a report that cannot be rendered never stops the loop. */
import { renameSync, writeFileSync } from 'node:fs';
import { renderEvolveReport, type EvolveReportInput } from './render.js';

export async function writeEvolveReport(file: string, input: EvolveReportInput): Promise<{ warnings: string[] }> {
  const { html, warnings } = await renderEvolveReport(input);
  const temp = `${file}.tmp-${process.pid}`;
  writeFileSync(temp, html);
  renameSync(temp, file);
  return { warnings };
}
