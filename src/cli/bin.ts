#!/usr/bin/env node
/** Process entry: signals and the exit code. Everything else lives in main(). */
import { EXIT } from './exit-codes.js';
import { processIO } from './io.js';
import { main } from './main.js';

/** After a first signal, the longest a command may take to stop by itself. */
const GRACE_MS = 10_000;

const controller = new AbortController();
let signals = 0;
const onSignal = (name: NodeJS.Signals): void => {
  signals += 1;
  // First: stop scheduling and commit what is done. Second: give up at once.
  if (signals > 1) process.exit(EXIT.interrupted);
  if (name === 'SIGINT') process.stderr.write('\ninterrupting: committing finished cases to the ledger (Ctrl-C again to exit at once)\n');
  controller.abort();
  // A command that does not watch the signal (or is stuck in I/O) must not outlive it for ever.
  setTimeout(() => {
    process.stderr.write(`isobudget: still running ${GRACE_MS / 1000} s after ${name}; exiting\n`);
    process.exit(EXIT.interrupted);
  }, GRACE_MS).unref();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

// The reader went away (`isobudget analyze latest | head -1`): stop quietly, as cat and git do,
// instead of an unhandled 'error' event and its stack. What a run committed stays committed;
// an unfinished run is left resumable, as after a signal.
const onStreamError = (error: NodeJS.ErrnoException): void => {
  if (error.code === 'EPIPE') process.exit(EXIT.ok);
  throw error;
};
process.stdout.on('error', onStreamError);
process.stderr.on('error', onStreamError);

main(process.argv.slice(2), processIO(controller.signal)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`isobudget: ${String(error)}\n`);
    process.exitCode = EXIT.internal;
  },
);
