/**
 * YAML text → plain data plus a way back from a key path to file:line:column, so that every
 * config error can point at the line to edit.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Pair } from 'yaml';
import type { KeyPath } from './key-path.js';

export interface SourcePosition {
  line: number;
  column: number;
}

/** Which part of an entry an error points at: the key, its value, or the nearest existing parent (missing keys). */
export type Anchor = 'key' | 'value' | 'parent';

export interface YamlSyntaxProblem {
  code: string;
  message: string;
  position: SourcePosition;
  /** Key path at the error, when it falls on a key (e.g. a duplicate key). */
  path: KeyPath | undefined;
}

export interface YamlSource {
  data: unknown;
  /** Syntax errors and duplicate keys; when non-empty, `data` must not be trusted. */
  problems: YamlSyntaxProblem[];
  locate(path: KeyPath, anchor: Anchor): SourcePosition;
}

type Ranged = { range?: [number, number, number] | null | undefined };

function keyText(pair: Pair<unknown, unknown>): string | undefined {
  return isScalar(pair.key) ? String(pair.key.value) : undefined;
}

function startOf(node: unknown): number | undefined {
  return (node as Ranged | null)?.range?.[0] ?? undefined;
}

/** Path of the map key whose node starts at `offset`, searching depth-first. */
function pathAtOffset(node: unknown, offset: number, prefix: Array<string | number>): KeyPath | undefined {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = keyText(pair);
      if (key === undefined) continue;
      const range = (pair.key as Ranged).range;
      if (range && offset >= range[0] && offset <= range[1]) return [...prefix, key];
      const inner = pathAtOffset(pair.value, offset, [...prefix, key]);
      if (inner) return inner;
    }
  } else if (isSeq(node)) {
    for (const [index, item] of node.items.entries()) {
      const inner = pathAtOffset(item, offset, [...prefix, index]);
      if (inner) return inner;
    }
  }
  return undefined;
}

/**
 * Best guess of the entry a syntax error belongs to: an entry whose value ends right at the
 * error (an unterminated `[` or quote), else the deepest entry spanning it.
 */
function pathNearOffset(node: unknown, offset: number, prefix: Array<string | number>): { path: KeyPath; exact: boolean } | undefined {
  const children: Array<[string | number, unknown, unknown]> = [];
  if (isMap(node)) for (const pair of node.items) children.push([keyText(pair) ?? '?', pair.key, pair.value]);
  else if (isSeq(node)) for (const [index, item] of node.items.entries()) children.push([index, item, item]);
  let spanning: { path: KeyPath; exact: boolean } | undefined;
  for (const [segment, key, value] of children) {
    const path = [...prefix, segment];
    const inner = pathNearOffset(value, offset, path);
    if (inner?.exact) return inner;
    const start = startOf(key);
    const end = (value as Ranged | null)?.range?.[1];
    if (end === offset) return { path, exact: true };
    if (start !== undefined && end !== undefined && start <= offset && offset < end) spanning = inner ?? { path, exact: false };
  }
  return spanning;
}

/** Alias expansions allowed when turning YAML into data (the yaml library's measure). */
export const MAX_ALIAS_COUNT = 1000;

export const ALIAS_BOMB = 'ALIAS_BOMB';

function aliasProblem(doc: Document, error: unknown, position: (offset: number) => SourcePosition): YamlSyntaxProblem {
  let first: number | undefined;
  visit(doc, {
    Alias(_, node) {
      first = node.range?.[0];
      return visit.BREAK;
    },
  });
  const bomb = error instanceof ReferenceError;
  return {
    code: bomb ? ALIAS_BOMB : 'YAML_TO_DATA',
    message: bomb
      ? `aliases expand to too many values (more than ${MAX_ALIAS_COUNT} alias expansions: a YAML alias bomb)`
      : `the YAML cannot be read as data (${error instanceof Error ? error.message : String(error)})`,
    position: position(first ?? 0),
    path: undefined,
  };
}

export function parseYamlSource(text: string): YamlSource {
  const lineCounter = new LineCounter();
  // logLevel error: the library's warnings (e.g. a mapping used as a key) would go to the process's
  // stderr with the data in them, past the terminal-safe output.
  const doc: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, logLevel: 'error' });
  const position = (offset: number): SourcePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };

  const problems: YamlSyntaxProblem[] = doc.errors.map((error) => ({
    code: error.code,
    message: error.code === 'DUPLICATE_KEY' ? 'duplicate key' : error.message,
    position: position(error.pos[0]),
    path: error.code === 'DUPLICATE_KEY' ? pathAtOffset(doc.contents, error.pos[0], []) : pathNearOffset(doc.contents, error.pos[0], [])?.path,
  }));

  const locate = (path: KeyPath, anchor: Anchor): SourcePosition => {
    let node: unknown = doc.contents;
    let keyNode: unknown;
    let lastFound: number | undefined = startOf(node);
    for (const [depth, segment] of path.entries()) {
      let pair: Pair<unknown, unknown> | undefined;
      if (isMap(node)) pair = node.items.find((item) => isPair(item) && keyText(item) === String(segment));
      if (pair) {
        keyNode = pair.key;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number' && node.items[segment] !== undefined) {
        keyNode = node.items[segment];
        node = node.items[segment];
      } else {
        return position(lastFound ?? 0); // missing: point at the deepest entry that exists
      }
      const isLast = depth === path.length - 1;
      const chosen = isLast && anchor === 'value' ? startOf(node) ?? startOf(keyNode) : startOf(keyNode);
      if (isLast && anchor === 'parent') return position(lastFound ?? 0);
      lastFound = chosen ?? lastFound;
    }
    return position(lastFound ?? 0);
  };

  let data: unknown;
  if (problems.length === 0) {
    try {
      data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      // An alias bomb (`*a` repeated until it expands to billions of nodes) is refused by
      // the yaml library with a ReferenceError: report it at the first alias, as input.
      problems.push(aliasProblem(doc, error, position));
    }
  }
  return { data, problems, locate };
}
