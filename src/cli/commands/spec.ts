import type { CliIO } from '../io.js';

export interface CommandSpec {
  summary: string;
  run(argv: string[], io: CliIO): Promise<number>;
}
