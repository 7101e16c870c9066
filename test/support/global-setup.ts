/**
 * End-to-end tests spawn the real CLI from dist/: build it first so they never test a
 * stale binary (tsc 7 builds the project in about two seconds).
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export default function setup(): void {
  const require = createRequire(import.meta.url);
  const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  } catch {
    // tsc still emits on type errors; `npm run build` (prepare, in CI) is what fails on them.
    process.stderr.write('warning: type errors while building dist/ for the end-to-end tests\n');
  }
  execFileSync(process.execPath, ['scripts/chmod-bin.mjs'], { stdio: 'inherit' });
}
