/**
 * Line edits written as a unified diff, for the simulated proposer: it knows exactly which
 * lines it replaces or inserts, so it writes the hunks directly (3 lines of context, nearby
 * edits in one hunk) — the way a model that edits a file would.
 */

export interface LineEdit {
  /** 0-based index of the first old line the edit replaces (or inserts before). */
  at: number;
  /** Old lines removed from `at`. */
  remove: number;
  add: readonly string[];
}

const CONTEXT = 3;

export function applyEdits(lines: readonly string[], edits: readonly LineEdit[]): string[] {
  const out: string[] = [];
  let cursor = 0;
  for (const edit of sorted(edits)) {
    out.push(...lines.slice(cursor, edit.at), ...edit.add);
    cursor = edit.at + edit.remove;
  }
  return [...out, ...lines.slice(cursor)];
}

export function editsDiff(lines: readonly string[], edits: readonly LineEdit[], label: string): string {
  const groups: LineEdit[][] = [];
  for (const edit of sorted(edits)) {
    const last = groups.at(-1);
    const previous = last?.at(-1);
    if (last && previous && edit.at - (previous.at + previous.remove) <= 2 * CONTEXT) last.push(edit);
    else groups.push([edit]);
  }
  const out = [`--- ${label}`, `+++ ${label}`];
  // Net lines added by earlier hunks: where this hunk starts on the new side.
  let shift = 0;
  for (const group of groups) {
    const first = group[0] as LineEdit;
    const last = group.at(-1) as LineEdit;
    const start = Math.max(0, first.at - CONTEXT);
    const end = Math.min(lines.length, last.at + last.remove + CONTEXT);
    const body: string[] = [];
    let cursor = start;
    for (const edit of group) {
      for (; cursor < edit.at; cursor += 1) body.push(` ${lines[cursor] ?? ''}`);
      for (let i = 0; i < edit.remove; i += 1) body.push(`-${lines[edit.at + i] ?? ''}`);
      for (const line of edit.add) body.push(`+${line}`);
      cursor = edit.at + edit.remove;
    }
    for (; cursor < end; cursor += 1) body.push(` ${lines[cursor] ?? ''}`);
    const oldCount = body.filter((l) => !l.startsWith('+')).length;
    const newCount = body.filter((l) => !l.startsWith('-')).length;
    out.push(`@@ -${range(start, oldCount)} +${range(start + shift, newCount)} @@`, ...body);
    shift += newCount - oldCount;
  }
  return `${out.join('\n')}\n`;
}

function range(start: number, count: number): string {
  const first = count === 0 ? start : start + 1;
  return count === 1 ? `${first}` : `${first},${count}`;
}

function sorted(edits: readonly LineEdit[]): LineEdit[] {
  return [...edits].sort((a, b) => a.at - b.at);
}
