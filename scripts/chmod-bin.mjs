// npm links the bin on install, but a freshly built file has no exec bit: set it so
// `./dist/cli/bin.js` and `npx isobudget` both work.
import { chmodSync, existsSync } from 'node:fs';
const bin = new URL('../dist/cli/bin.js', import.meta.url);
if (existsSync(bin)) chmodSync(bin, 0o755);
