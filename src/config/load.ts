/**
 * Config loading: YAML text → validated, normalized `ExperimentConfig`, or `IsobudgetErrors`
 * listing every problem with file:line:column, the dotted key and a hint.
 */
import { resolve } from 'node:path';
import { IsobudgetError, IsobudgetErrors } from '../core/errors.js';
import { decodeUtf8, MAX_SMALL_FILE_BYTES, readInputFile } from '../core/input-file.js';
import { nodeFileAccess, type ConfigFileAccess } from './file-access.js';
import { problemsFromIssues } from './issues.js';
import { formatKeyPath } from './key-path.js';
import { normalizeConfig } from './normalize.js';
import type { ConfigProblem } from './problem.js';
import { experimentSchema } from './schema.js';
import type { ExperimentConfig } from './types.js';
import { ALIAS_BOMB, parseYamlSource } from './yaml-source.js';

export interface ParseConfigOptions {
  /** File access for skill files and scorer modules (default: the real file system). */
  files?: ConfigFileAccess;
}

/** Throws every error at once, in file order so the list reads top to bottom. */
function fail(errors: IsobudgetError[]): never {
  const position = (e: IsobudgetError): number => (e.location?.line ?? 0) * 1e6 + (e.location?.column ?? 0);
  throw new IsobudgetErrors([...errors].sort((a, b) => position(a) - position(b)));
}

/**
 * Parses and validates config text as if it were the file at `path` (relative paths inside
 * resolve against its directory). Throws `IsobudgetErrors` with all problems found.
 */
export function parseConfigText(text: string, path: string, options: ParseConfigOptions = {}): ExperimentConfig {
  const file = resolve(path);
  const files = options.files ?? nodeFileAccess;
  const source = parseYamlSource(text);

  if (source.problems.length > 0) {
    fail(
      source.problems.map((p) => {
        const duplicate = p.code === 'DUPLICATE_KEY';
        const key = p.path === undefined ? undefined : formatKeyPath(p.path);
        const first = duplicate && p.path ? source.locate(p.path, 'key') : undefined;
        if (p.code === ALIAS_BOMB) {
          return new IsobudgetError('config_alias_bomb', p.message, {
            location: { file, line: p.position.line, column: p.position.column },
            hint: 'write the values out instead of nesting aliases (*name) of aliases',
          });
        }
        return new IsobudgetError(duplicate ? 'config_duplicate_key' : 'config_yaml_syntax', duplicate ? `duplicate key \`${key ?? '?'}\`${first ? ` (first on line ${first.line})` : ''}` : `YAML syntax error: ${p.message}`, {
          location: { file, line: p.position.line, column: p.position.column, ...(key === undefined ? {} : { key }) },
          hint: duplicate ? 'each key may appear once per mapping: delete or merge the repeated one' : 'fix the YAML at this position (check indentation, quotes and brackets)',
        });
      }),
    );
  }
  if (source.data === null || source.data === undefined) {
    fail([new IsobudgetError('config_empty', 'config file is empty', { location: { file, line: 1, column: 1 }, hint: 'start with `experiment: <name>`; run `isobudget schema` for every key' })]);
  }
  if (typeof source.data !== 'object' || Array.isArray(source.data)) {
    fail([new IsobudgetError('config_not_mapping', 'the config must be a YAML mapping of `key: value` lines', { location: { file, line: 1, column: 1 }, hint: 'start with `experiment: <name>`' })]);
  }

  const toError = (p: ConfigProblem): IsobudgetError => {
    const position = source.locate(p.path, p.anchor);
    return new IsobudgetError(p.code, p.message, {
      location: { file, line: position.line, column: position.column, key: formatKeyPath(p.path) },
      hint: p.hint,
    });
  };

  const parsed = experimentSchema.safeParse(source.data);
  if (!parsed.success) fail(problemsFromIssues(parsed.error.issues, experimentSchema, source.data).map(toError));
  const { config, problems } = normalizeConfig(parsed.data, file, files);
  if (problems.length > 0) fail(problems.map(toError));
  return config;
}

/** Reads and validates the experiment YAML at `path`. */
export async function loadConfig(path: string): Promise<ExperimentConfig> {
  const file = resolve(path);
  let text: string;
  try {
    const bytes = await readInputFile(file, { what: 'config file', code: 'config', maxBytes: MAX_SMALL_FILE_BYTES, notFoundHint: 'check the path, or run `isobudget init` to create an experiment' });
    text = decodeUtf8(bytes, file, { what: 'config file', code: 'config' });
  } catch (error) {
    throw error instanceof IsobudgetError ? new IsobudgetErrors([error]) : error;
  }
  return parseConfigText(text, file);
}
