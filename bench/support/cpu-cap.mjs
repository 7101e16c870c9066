/**
 * Equal, fixed CPU shares for benchmark processes (cgroup v1 `cpu` controller, as root): each
 * capped process gets a group of its own with cfs_quota_us = share × cfs_period_us, so it can
 * use at most `share` of one CPU however idle the machine is — what a replica on a machine or
 * core of its own gives, minus its spare capacity. `openCpuCaps` says why not (a string) where
 * the controller is missing or not writable; nothing is changed then.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = '/sys/fs/cgroup/cpu';
const PERIOD_US = 100_000;

/** A set of capped groups named `${prefix}-N`; `cap(pid)` puts one process in a fresh group; `close()` removes the groups. */
export function openCpuCaps(prefix, share) {
  if (!(share > 0 && share <= 64)) return `--cpu-per-replica must be a CPU share in (0, 64], got ${share}`;
  if (!existsSync(join(ROOT, 'cpu.cfs_quota_us'))) return `no cgroup v1 cpu controller at ${ROOT} (cgroup v2 or none)`;
  const probe = join(ROOT, `${prefix}-probe`);
  try {
    mkdirSync(probe);
    writeFileSync(join(probe, 'cpu.cfs_period_us'), String(PERIOD_US));
    writeFileSync(join(probe, 'cpu.cfs_quota_us'), String(Math.round(share * PERIOD_US)));
    rmdirSync(probe);
  } catch (error) {
    try {
      rmdirSync(probe);
    } catch {
      // not created
    }
    return `cannot create a capped cgroup under ${ROOT} (${error.code ?? error.message}; run as root with the cpu controller writable)`;
  }
  const groups = [];
  return {
    share,
    cap(pid) {
      const dir = join(ROOT, `${prefix}-${groups.length}`);
      mkdirSync(dir);
      groups.push(dir);
      writeFileSync(join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
      writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(Math.round(share * PERIOD_US)));
      // cgroup.procs moves every thread of the process (libuv pool, GC threads).
      writeFileSync(join(dir, 'cgroup.procs'), String(pid));
      return dir;
    },
    /** Times the group's processes were held back by the cap (nr_throttled) and for how long (ms). */
    throttled(dir) {
      const stat = Object.fromEntries(readFileSync(join(dir, 'cpu.stat'), 'utf8').trim().split('\n').map((line) => line.split(' ')));
      return { periods: Number(stat.nr_periods), throttled: Number(stat.nr_throttled), throttledMs: Number(stat.throttled_time) / 1e6 };
    },
    /** Removes the groups (their processes must have exited). */
    close() {
      for (const dir of groups.splice(0)) {
        try {
          rmdirSync(dir);
        } catch {
          // a process still in it: left for the OS (empty groups are harmless)
        }
      }
    },
  };
}
