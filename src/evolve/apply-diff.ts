/**
 * Applies a unified diff (as `unifiedDiff` writes it, or as a model writes one) to a text,
 * pure. A proposal "applies cleanly" when every hunk's old side — its context and removed
 * lines — is found in the text, in order, without fuzz. Like `patch`, a hunk whose line
 * numbers are off is placed where its old side actually is (the nearest match to the stated
 * line); unlike `patch`, no context line may differ. Trailing whitespace is not compared
 * (models drop it), and the `@@` counts are not trusted: the hunk body says what it holds.
 */
import { splitLines } from '../memory/unified-diff.js';

export type ApplyResult = { ok: true; text: string } | { ok: false; reason: string };

interface Hunk {
  /** 1-based old start line as stated in the header (0 for an insertion into an empty text). */
  oldStart: number;
  lines: Array<{ kind: ' ' | '-' | '+'; text: string }>;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/;

export function parseHunks(diff: string): { hunks: Hunk[] } | { problem: string } {
  const hunks: Hunk[] = [];
  let current: Hunk | undefined;
  for (const line of splitLines(diff)) {
    const header = HUNK_HEADER.exec(line);
    if (header) {
      current = { oldStart: Number(header[1]), lines: [] };
      hunks.push(current);
      continue;
    }
    if (!current) {
      // File headers (`--- a`, `+++ b`, `diff --git`, `index …`) before the first hunk.
      if (/^(---|\+\+\+|diff |index )/.test(line) || line.trim() === '') continue;
      return { problem: `line "${clip(line)}" comes before the first @@ hunk header` };
    }
    if (line.startsWith('\\')) continue; // "\ No newline at end of file"
    const kind = line.charAt(0);
    if (kind === ' ' || kind === '-' || kind === '+') current.lines.push({ kind, text: line.slice(1) });
    // A blank line in a hunk is an empty context line whose leading space was stripped.
    else if (line === '') current.lines.push({ kind: ' ', text: '' });
    else return { problem: `hunk ${hunks.length} has a line that is not context, - or +: "${clip(line)}"` };
  }
  if (hunks.length === 0) return { problem: 'no @@ hunk: not a unified diff' };
  const empty = hunks.findIndex((h) => h.lines.every((l) => l.kind === ' '));
  if (empty >= 0) return { problem: `hunk ${empty + 1} changes nothing` };
  return { hunks };
}

export function applyUnifiedDiff(text: string, diff: string): ApplyResult {
  const parsed = parseHunks(diff);
  if ('problem' in parsed) return { ok: false, reason: parsed.problem };
  const source = splitLines(text);
  const out: string[] = [];
  let cursor = 0;
  for (const [index, hunk] of parsed.hunks.entries()) {
    const old = hunk.lines.filter((l) => l.kind !== '+').map((l) => l.text);
    const at = old.length === 0 ? Math.min(Math.max(hunk.oldStart, cursor), source.length) : locate(source, old, Math.max(0, hunk.oldStart - 1), cursor);
    if (at === undefined) {
      const first = old.find((l) => l.trim() !== '') ?? old[0] ?? '';
      return { ok: false, reason: `hunk ${index + 1} does not apply: its context ("${clip(first)}"…) is not in the skill${index > 0 ? ' after the previous hunk' : ''}` };
    }
    out.push(...source.slice(cursor, at));
    // Context lines keep the text's own form (its trailing spaces); added lines are the diff's.
    let from = at;
    for (const line of hunk.lines) {
      if (line.kind === '+') out.push(line.text);
      else if (line.kind === ' ') out.push(source[from++] ?? line.text);
      else from++;
    }
    cursor = at + old.length;
  }
  out.push(...source.slice(cursor));
  return { ok: true, text: out.length === 0 ? '' : `${out.join('\n')}\n` };
}

/** Index where `block` occurs in `source` at or after `from`, nearest to `hint`; undefined when nowhere. */
function locate(source: readonly string[], block: readonly string[], hint: number, from: number): number | undefined {
  const same = (a: string, b: string): boolean => a.trimEnd() === b.trimEnd();
  const matches = (at: number): boolean => block.every((line, i) => at + i < source.length && same(source[at + i] ?? '', line));
  const last = source.length - block.length;
  for (let distance = 0; distance <= source.length; distance += 1) {
    for (const at of distance === 0 ? [hint] : [hint - distance, hint + distance]) {
      if (at >= from && at <= last && matches(at)) return at;
    }
  }
  return undefined;
}

function clip(line: string): string {
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
