/**
 * Preloaded (`node --import`) into a CLI process a benchmark starts: at exit, writes that
 * process's own peak RSS and CPU time to $BENCH_USAGE_FILE — exact figures for a child
 * process, which Node cannot otherwise ask the OS for.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRssKB: usage.maxRSS, userCpuUs: usage.userCPUTime, systemCpuUs: usage.systemCPUTime }));
  });
}
