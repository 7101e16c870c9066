/**
 * What a `real_evolution` run lets you do next, said the same way in the terminal, the
 * Markdown summary and the report, pure. A run screens a candidate; it never promotes one:
 * promotion is `isobudget gate`, which runs the test split itself and adds the regression,
 * budget and human layers (DESIGN §7). So a run that passes says "passes screening on val",
 * never "promotable".
 */
import type { VerdictRecord } from '../verdict/record.js';

/** The gate command for the experiment; `EXPERIMENT.yaml` when the config is unknown (a seed ledger). */
export function gateCommand(configPath: string | undefined): string {
  return `isobudget gate ${configPath === undefined || configPath === '' ? 'EXPERIMENT.yaml' : quoteArg(configPath)}`;
}

/** The note in three parts, so each view can mark up the command its own way (and escape the rest). */
export interface ScreeningNote {
  /** "passes screening on val — next: " */
  head: string;
  /** "isobudget gate examples/date-parser/experiment.yaml" */
  command: string;
  /** " (promotion needs the test split, …)" */
  tail: string;
}

/** "passes screening on val — next: `isobudget gate …`", or undefined when the verdict did not pass. */
export function screeningNote(record: Pick<VerdictRecord, 'verdict' | 'split'>, configPath: string | undefined): ScreeningNote | undefined {
  if (record.verdict !== 'real_evolution') return undefined;
  const command = gateCommand(configPath);
  return record.split === 'test'
    ? { head: 'passes on the test split, which is not a promotion — next: ', command, tail: ' (regression, budget and human layers)' }
    : { head: `passes screening on ${record.split} — next: `, command, tail: ' (promotion needs the test split, the regression and budget gates and a human)' };
}

/** The note as plain text, the command marked up by `code`; `capital` starts it with a capital letter. */
export function screeningText(note: ScreeningNote, code: (command: string) => string = (c) => c, capital = false): string {
  const head = capital ? `${note.head.charAt(0).toUpperCase()}${note.head.slice(1)}` : note.head;
  return `${head}${code(note.command)}${note.tail}`;
}

/** A path as a shell word: quoted only when it needs to be. */
function quoteArg(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
