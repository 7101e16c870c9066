/**
 * The progress line's text, pure: elapsed time, units done, the running pass@1 of every arm
 * (A, B, C, D in plan order) and the tokens spent, labelled. On a terminal the line must fit
 * the width — a line that wraps cannot be redrawn in place (`\r` returns to the start of the
 * last row only), so every redraw would leave a row behind. Richer forms are tried first and
 * the first that fits wins.
 */

export interface ProgressArmState {
  /** A, B, C, D (C4, D8 with several N). */
  label: string;
  /** Running per-path pass rate on the run's split (regression cases left out); undefined before the first unit. */
  passRate: number | undefined;
  /** Tokens billed so far, every call of the arm (tokens). */
  tokens: number;
}

export interface ProgressSnapshot {
  /** Since this session of the run started (ms). */
  elapsedMs: number;
  done: number;
  total: number;
  arms: readonly ProgressArmState[];
  /** Estimated time left (ms); undefined until enough units are done for an estimate to mean something. */
  etaMs: number | undefined;
}

/** The line for a terminal `columns` wide: never longer than columns − 1 (the last column makes some terminals wrap). */
export function progressLine(snapshot: ProgressSnapshot, columns: number): string {
  const room = Math.max(10, columns - 1);
  for (const parts of candidates(snapshot)) {
    for (const separator of ['  ', ' ']) {
      const line = parts.filter((p): p is string => p !== undefined).join(separator);
      if (length(line) <= room) return line;
    }
  }
  const tightest = compact(snapshot).join(' ');
  return `${[...tightest].slice(0, room - 1).join('')}…`;
}

/** One line for a log (not a terminal): everything, in full. */
export function plainProgressLine(snapshot: ProgressSnapshot): string {
  const [first] = candidates(snapshot);
  return `progress ${(first ?? []).filter((p): p is string => p !== undefined).join('  ')}`;
}

function candidates(s: ProgressSnapshot): Array<Array<string | undefined>> {
  const elapsed = duration(s.elapsedMs);
  const units = `${s.done}/${s.total} units (${percent(s.done, s.total)})`;
  const eta = s.etaMs === undefined ? undefined : `eta ${duration(s.etaMs)}`;
  const total = `tokens: ${formatTokens(s.arms.reduce((acc, a) => acc + a.tokens, 0))}`;
  const perArm = `tokens: ${s.arms.map((a) => `${a.label} ${formatTokens(a.tokens)}`).join(' ')}`;
  return [
    [elapsed, units, passes(s.arms, 1), perArm, eta],
    [elapsed, units, passes(s.arms, 0), perArm, eta],
    [elapsed, units, passes(s.arms, 0), total, eta],
    [elapsed, `${s.done}/${s.total}`, passes(s.arms, 0), total, eta],
    compact(s),
  ];
}

/** The last resort before cutting: no separators to spare, no ETA. */
function compact(s: ProgressSnapshot): string[] {
  return [duration(s.elapsedMs), `${s.done}/${s.total}`, passes(s.arms, 0), `tokens: ${formatTokens(s.arms.reduce((acc, a) => acc + a.tokens, 0))}`];
}

function passes(arms: readonly ProgressArmState[], digits: number): string {
  return `pass@1 ${arms.map((a) => `${a.label} ${a.passRate === undefined ? '–' : `${(a.passRate * 100).toFixed(digits)}%`}`).join(' ')}`;
}

function percent(done: number, total: number): string {
  return `${total === 0 ? 100 : Math.floor((done / total) * 100)}%`;
}

/** 9s, 4m05s, 1h02m. */
export function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`;
}

export function formatTokens(tokens: number): string {
  return tokens >= 1e6 ? `${(tokens / 1e6).toFixed(1)}M` : tokens >= 1e3 ? `${(tokens / 1e3).toFixed(1)}k` : String(Math.round(tokens));
}

/** Terminal columns taken by the text: one per code point (the line holds no wide characters). */
function length(text: string): number {
  return [...text].length;
}
