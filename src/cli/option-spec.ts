/** The shape of a command's options: the parser (args.ts) and the help text (help.ts) both read it. */

/** Help as data, next to each option's definition: `--help` is generated from it. */
interface OptionDoc {
  /** One line: what the option does. */
  help: string;
  /** What applies without the option, as shown (booleans: off when absent). */
  fallback?: string;
}

export interface StringOption extends OptionDoc {
  type: 'string';
  short?: string;
  multiple?: boolean;
  /** Placeholder of the value in the option list, e.g. N, FILE, DIR (default VALUE). */
  value?: string;
  /** A real value for the `e.g.` of the option list, e.g. 4 for --concurrency. */
  example: string;
}

export interface BooleanOption extends OptionDoc {
  type: 'boolean';
  short?: string;
  multiple?: boolean;
}

export type OptionSpec = StringOption | BooleanOption;
export type Options = Readonly<Record<string, OptionSpec>>;
