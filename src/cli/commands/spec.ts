import type { CliIO } from '../io.js';

export interface CommandSpec {
  summary: string;
  /** Words after the command that lead to their own options (`memory search`), for `--help` and its test. */
  subcommands?: readonly string[];
  run(argv: string[], io: CliIO): Promise<number>;
}
