/**
 * Line diffs for skill text (seed §6: "use Diff mode, change only what needs changing").
 * Myers' O(ND) shortest edit script (Myers 1986, "An O(ND) Difference Algorithm and Its
 * Variations"), rendered in the unified format `patch` and `git apply` read.
 */

export interface DiffOp {
  kind: ' ' | '-' | '+';
  line: string;
}

/** Text → lines; a final newline does not make an extra empty line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The shortest edit script turning `a` into `b`, as keep/delete/insert operations in order. */
export function diffLines(a: readonly string[], b: readonly string[]): DiffOp[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] is V as it stood before round d: enough to walk the path back.
  const trace: Int32Array[] = [];
  let found = max === 0;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  return backtrack(a, b, trace, offset);
}

function backtrack(a: readonly string[], b: readonly string[], trace: Int32Array[], offset: number): DiffOp[] {
  const ops: DiffOp[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d] ?? new Int32Array(0);
    const k = x - y;
    const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK] ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: ' ', line: a[x - 1] ?? '' });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: '+', line: b[y - 1] ?? '' });
      else ops.push({ kind: '-', line: a[x - 1] ?? '' });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

function range(start: number, count: number): string {
  // GNU style: an empty side names the line before it; a count of 1 is left out.
  const first = count === 0 ? start : start + 1;
  return count === 1 ? `${first}` : `${first},${count}`;
}

/**
 * A unified diff of two texts with `context` lines around each change; '' when equal.
 * Labels go on the `---` / `+++` lines (e.g. `skill-date-parser-v2`, `skill-date-parser-v3`).
 */
export function unifiedDiff(before: string, after: string, labels: { from: string; to: string }, context = 3): string {
  const ops = diffLines(splitLines(before), splitLines(after));
  if (ops.every((op) => op.kind === ' ')) return '';
  const out = [`--- ${labels.from}`, `+++ ${labels.to}`];
  // Line counters before each op, on both sides.
  const aAt: number[] = [];
  const bAt: number[] = [];
  let ai = 0;
  let bi = 0;
  for (const op of ops) {
    aAt.push(ai);
    bAt.push(bi);
    if (op.kind !== '+') ai++;
    if (op.kind !== '-') bi++;
  }
  let i = 0;
  while (i < ops.length) {
    if (ops[i]?.kind === ' ') {
      i++;
      continue;
    }
    const start = Math.max(0, i - context);
    let end = i;
    // Extend while the next change is within 2×context equal lines: one hunk, not two.
    for (;;) {
      while (end < ops.length && ops[end]?.kind !== ' ') end++;
      let next = end;
      while (next < ops.length && ops[next]?.kind === ' ') next++;
      if (next < ops.length && next - end <= 2 * context) end = next;
      else {
        end = Math.min(ops.length, end + context);
        break;
      }
    }
    const hunk = ops.slice(start, end);
    const aCount = hunk.filter((op) => op.kind !== '+').length;
    const bCount = hunk.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${range(aAt[start] ?? 0, aCount)} +${range(bAt[start] ?? 0, bCount)} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
    i = end;
  }
  return `${out.join('\n')}\n`;
}
