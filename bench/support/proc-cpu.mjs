/**
 * CPU time from /proc (Linux): per process (utime + stime of /proc/PID/stat, all its threads)
 * and the whole machine's busy share (/proc/stat). Used to show where a benchmark's CPU goes
 * — replica processes, the PostgreSQL backends serving them, the simulator, the load
 * generator — and whether the machine was saturated. NaN where /proc is not there.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ = 100 on Linux

/** CPU time (ms) process `pid` has used; NaN when it is gone or /proc is missing. */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return NaN;
  }
}

/** Σ cpuMs over `pids`, skipping processes that are gone. */
export const cpuOfAll = (pids) => pids.reduce((sum, pid) => sum + (Number.isNaN(cpuMs(pid)) ? 0 : cpuMs(pid)), 0);

/** { busy, total } jiffies of the machine so far (all cores). */
export function machineTicks() {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const n = fields.slice(0, 8).map(Number);
    const idle = n[3] + n[4];
    const total = n.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return { busy: NaN, total: NaN };
  }
}

/** Pids of every `postgres` process on this machine (server and backends, any client's). */
export function postgresPids() {
  let names;
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const pids = [];
  for (const name of names) {
    try {
      if (readFileSync(`/proc/${name}/comm`, 'utf8').trim() === 'postgres') pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}
