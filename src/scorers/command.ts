/**
 * `command`: an external checker, run per output as an argv (no shell, so outputs can never
 * be interpreted as shell syntax). The output and the expected value are written to files in
 * a fresh temp dir (removed afterwards); argv placeholders `{{output_file}}`,
 * `{{expected_file}}` and `{{case_id}}` are substituted anywhere in an argument. Exit 0
 * passes; other exit codes fail, with the first 2 KB of stdout as the explanation. Timeouts,
 * signals and missing binaries are scorer errors.
 *
 * The child gets a minimal environment (PATH, HOME, locale, temp dir, interpreter paths)
 * rather than ours, because ours holds provider API keys (DESIGN §1, invariant 6). It also
 * gets ISOBUDGET_OUTPUT_FILE, ISOBUDGET_EXPECTED_FILE and ISOBUDGET_CASE_ID.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IsobudgetError } from '../core/errors.js';
import { runProcess, type ProcessResult } from './run-process.js';
import { passFail, scoreError } from './score-result.js';
import type { Score, ScoreInput, Scorer } from './spec.js';

export interface CommandScorerOptions {
  /** Program and arguments; the first element is looked up on PATH. */
  argv: string[];
  /** Wall-clock limit per output (ms). */
  timeoutMs: number;
}

/** Stdout kept for the explanation (bytes). */
export const COMMAND_EXPLANATION_BYTES = 2048;

const INHERITED_ENV = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'TEMP', 'TMP', 'SYSTEMROOT', 'NODE_PATH', 'PYTHONPATH', 'VIRTUAL_ENV'];

export function commandScorer(options: CommandScorerOptions): Scorer {
  if (options.argv.length === 0 || options.argv[0] === '') {
    throw new IsobudgetError('scorer_command_empty', 'command scorer needs a non-empty argv', { location: { key: 'scorer.argv' } });
  }
  if (!(options.timeoutMs > 0)) {
    throw new IsobudgetError('scorer_timeout_invalid', `command scorer timeoutMs must be > 0, got ${options.timeoutMs}`, { location: { key: 'scorer.timeoutMs' } });
  }
  return {
    name: 'command',
    version: '1.0.0',
    async score({ output, evalCase, signal }: ScoreInput): Promise<Score> {
      const dir = await mkdtemp(join(tmpdir(), 'isobudget-score-'));
      try {
        const outputFile = join(dir, 'output.txt');
        const expectedFile = join(dir, 'expected.txt');
        await writeFile(outputFile, output, 'utf8');
        await writeFile(expectedFile, expectedFileText(evalCase.expected), 'utf8');
        const substitutions: Record<string, string> = { output_file: outputFile, expected_file: expectedFile, case_id: evalCase.id };
        const argv = options.argv.map((arg) => arg.replace(/\{\{(output_file|expected_file|case_id)\}\}/g, (_, key: string) => substitutions[key] ?? ''));
        const env = childEnv({ ISOBUDGET_OUTPUT_FILE: outputFile, ISOBUDGET_EXPECTED_FILE: expectedFile, ISOBUDGET_CASE_ID: evalCase.id });
        const runOptions = { argv, timeoutMs: options.timeoutMs, env, captureBytes: COMMAND_EXPLANATION_BYTES };
        const result = await runProcess(signal === undefined ? runOptions : { ...runOptions, signal });
        return toScore(result, argv[0] ?? '', options.timeoutMs);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Strings are written verbatim (no JSON quotes); anything else as JSON; none as empty. */
function expectedFileText(expected: unknown): string {
  if (expected === undefined || expected === null) return '';
  if (typeof expected === 'string') return expected;
  return JSON.stringify(expected) ?? String(expected);
}

function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of INHERITED_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}

function toScore(result: ProcessResult, program: string, timeoutMs: number): Score {
  switch (result.kind) {
    case 'spawn_error':
      return scoreError(result.code === 'ENOENT' ? `command not found: ${program}` : `cannot run ${program}: ${result.message}`);
    case 'timeout':
      return scoreError(`timeout after ${timeoutMs} ms`, excerpt(result.stdout, result.stderr));
    case 'aborted':
      return scoreError('aborted');
    case 'signaled':
      return scoreError(`${program} was terminated by ${result.signal}`, excerpt(result.stdout, result.stderr));
    case 'exited': {
      const passed = result.exitCode === 0;
      const text = excerpt(result.stdout, passed ? '' : result.stderr);
      return passFail(passed, text ?? `exit code ${result.exitCode}`);
    }
  }
}

/** Stdout when the checker printed something, else stderr; undefined when both are empty. */
function excerpt(stdout: string, stderr: string): string | undefined {
  const text = stdout.trim() !== '' ? stdout : stderr;
  return text.trim() === '' ? undefined : text.trimEnd();
}
