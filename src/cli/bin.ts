#!/usr/bin/env node
/** Process entry: signals and the exit code. Everything else lives in main(). */
import { EXIT } from './exit-codes.js';
import { processIO } from './io.js';
import { main } from './main.js';

const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  interrupts += 1;
  // First Ctrl-C: stop scheduling and commit what is done. Second: give up at once.
  if (interrupts === 1) {
    process.stderr.write('\ninterrupting: committing finished cases to the ledger (Ctrl-C again to exit at once)\n');
    controller.abort();
  } else process.exit(EXIT.interrupted);
});
process.on('SIGTERM', () => controller.abort());

main(process.argv.slice(2), processIO(controller.signal)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`isobudget: ${String(error)}\n`);
    process.exitCode = EXIT.internal;
  },
);
