/**
 * Finds and kills every process a spawned command started, including the ones that left its
 * process group and session (`setsid`, a daemonizing dev server). Killing the group alone is
 * not enough: an escaped child keeps our pipes open and outlives the run.
 *
 * Three nets, all read from /proc (Linux; elsewhere only the group kill applies):
 * 1. a tag in the environment — every descendant inherits `ISOBUDGET_PROCESS_TAG=<random>`
 *    unless it scrubs its environment, and it survives re-parenting to init;
 * 2. the parent chain — descendants of the child still linked through a live parent, which
 *    catches a descendant that scrubbed its environment while its parent lives;
 * 3. sessions and process groups — anything in a session or group led by a process found by
 *    1 or 2 (`setsid` makes the escaped process a session leader; its children join it).
 * A tag cannot be reused by another spawn, so a recycled pid is never killed by mistake.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** Name of the env var that marks every descendant of one spawn. */
export const PROCESS_TAG_ENV = 'ISOBUDGET_PROCESS_TAG';

/** A fresh tag for one spawn (unguessable, so no unrelated process carries it). */
export function newProcessTag(): string {
  return randomBytes(9).toString('base64url');
}

interface ProcStat {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  zombie: boolean;
  /** Start time in clock ticks since boot (field 22 of /proc/PID/stat). */
  startTicks: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), sid: Number(fields[3]), zombie: fields[0] === 'Z', startTicks: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

function carriesTag(pid: number, marker: string): boolean {
  try {
    // environ is NUL-separated; reading another user's process fails (EACCES) and is not ours.
    return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(marker);
  } catch {
    return false;
  }
}

function listPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * Where a spawn's tree starts: the start time of its direct child, so a scan reads the
 * environment only of processes started since (every descendant is younger than its root).
 * 0 (no filter) when it cannot be read.
 */
export interface TreeRoot {
  tag: string;
  startTicks: number;
}

/** Marks a freshly spawned child as the root of a tree tagged `tag`. */
export function treeRoot(pid: number | undefined, tag: string): TreeRoot {
  const stat = pid === undefined ? undefined : readStat(pid);
  return { tag, startTicks: stat?.startTicks ?? 0 };
}

/**
 * Pids of the live processes of the spawn whose environment was tagged with the root's tag,
 * and their descendants, sessions and groups; never our own pid or an ancestor of ours.
 */
export function findProcessTree(root: TreeRoot): number[] {
  const marker = `${PROCESS_TAG_ENV}=${root.tag}\0`;
  const stats = listPids()
    .map(readStat)
    .filter((stat): stat is ProcStat => stat !== undefined && !stat.zombie && !(stat.startTicks < root.startTicks));
  const protectedPids = ancestorsOfSelf();
  const found = new Set<number>();
  // The root carries the tag too; matching on the tag (not the pid) keeps a recycled pid safe.
  for (const stat of stats) if (carriesTag(stat.pid, marker)) found.add(stat.pid);
  // Grow through parent links, sessions and groups led by found processes, to a fixed point.
  for (let grew = true; grew; ) {
    grew = false;
    for (const stat of stats) {
      if (found.has(stat.pid)) continue;
      if (found.has(stat.ppid) || (found.has(stat.sid) && stat.sid !== 0) || (found.has(stat.pgid) && stat.pgid !== 0)) {
        found.add(stat.pid);
        grew = true;
      }
    }
  }
  for (const pid of protectedPids) found.delete(pid);
  return [...found];
}

let selfAndAncestors: Set<number> | undefined;

/** Our pid and our ancestors' (read once: a parent that dies is init's business, not ours). */
function ancestorsOfSelf(): Set<number> {
  if (selfAndAncestors !== undefined) return selfAndAncestors;
  const pids = new Set<number>([process.pid]);
  for (let pid = process.ppid; pid > 1 && !pids.has(pid); ) {
    pids.add(pid);
    const stat = readStat(pid);
    if (stat === undefined) break;
    pid = stat.ppid;
  }
  pids.add(1);
  selfAndAncestors = pids;
  return pids;
}

/**
 * SIGKILLs the command's process group and every process of its tree (see the file comment).
 * Scans once more after the kill so a process forked while we were killing is caught too
 * (a SIGKILLed process still shows until it dies; killing it twice is harmless).
 */
export function killProcessTree(rootPid: number | undefined, root: TreeRoot): void {
  // Scan before the first kill: killing a parent first would re-parent its children to init
  // and cut the parent chain that finds a descendant with a scrubbed environment.
  const first = findProcessTree(root);
  if (rootPid !== undefined) killQuietly(-rootPid);
  if (first.length === 0) return;
  for (const pid of first) killQuietly(pid);
  for (const pid of findProcessTree(root)) killQuietly(pid);
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // ESRCH: already gone; EPERM: not ours to kill.
  }
}
