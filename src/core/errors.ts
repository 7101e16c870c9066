/**
 * One error class for everything the user can fix (config, dataset, CLI input).
 * `location` names file, line and key; `hint` says how to fix it. Only `cli/` turns it
 * into an exit code.
 */
export interface ErrorLocation {
  file?: string;
  line?: number;
  column?: number;
  key?: string;
}

export class IsobudgetError extends Error {
  override readonly name: string = 'IsobudgetError';
  readonly code: string;
  readonly location: ErrorLocation | undefined;
  readonly hint: string | undefined;

  constructor(code: string, message: string, options: { location?: ErrorLocation; hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.location = options.location;
    this.hint = options.hint;
  }

  /** `file:line: key: message (hint)` — the form every user-facing error takes. */
  format(): string {
    const loc = this.location;
    const where = loc?.file ? `${loc.file}${loc.line !== undefined ? `:${loc.line}` : ''}${loc.column !== undefined ? `:${loc.column}` : ''}: ` : '';
    const key = loc?.key ? `${loc.key}: ` : '';
    const hint = this.hint ? `\n  hint: ${this.hint}` : '';
    return `${where}${key}${this.message}${hint}`;
  }
}

/** Several user errors found in one pass (all unknown keys of a config, all bad rows). */
export class IsobudgetErrors extends IsobudgetError {
  override readonly name = 'IsobudgetErrors';
  readonly errors: IsobudgetError[];

  constructor(errors: IsobudgetError[]) {
    const first = errors[0];
    super(first?.code ?? 'errors', errors.map((e) => e.format()).join('\n'), first?.location ? { location: first.location } : {});
    this.errors = errors;
  }

  override format(): string {
    return this.message;
  }
}
