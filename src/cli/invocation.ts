/**
 * How to type `isobudget` from where the user is, for the hints commands print ("next: …"):
 * `isobudget` when it is on PATH (after `npm link` or `npm i -g .`); `npx isobudget` inside the
 * clone (npx finds the package's own bin there); anywhere else `node /path/to/bin.js` — never
 * a bare `npx isobudget`, which outside the clone asks the public registry for a package of
 * that name that someone else could publish.
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const NAME = 'isobudget';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function insideClone(cwd: string): boolean {
  for (let dir = cwd; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (pkg.name === NAME) return true;
    } catch {
      // no package.json here, or not JSON: keep going up
    }
    if (dirname(dir) === dir) return false;
  }
}

export function isobudgetInvocation(env: NodeJS.ProcessEnv, cwd: string): string {
  if ((env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && isExecutable(join(dir, NAME)))) return NAME;
  if (insideClone(cwd)) return `npx ${NAME}`;
  const bin = fileURLToPath(new URL('./bin.js', import.meta.url));
  return `node ${/\s/.test(bin) ? JSON.stringify(bin) : bin}`;
}
