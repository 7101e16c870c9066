/**
 * A BPE vocabulary in three flat typed arrays, read from a `.tiktoken` file (OpenAI's format:
 * one `base64(token bytes) rank` per line, ranks 0..N−1).
 *
 * Why not gpt-tokenizer's own tables: they are a 2.4 MB JavaScript module of 200k string
 * literals turned into a Map — ~65 MB of RSS once parsed, compiled and indexed, more than the
 * whole harness needs for a 1,000-case run. The same vocabulary as bytes + offsets + an
 * open-addressing index is ~5 MB and loads in tens of milliseconds.
 */
import { readFileSync } from 'node:fs';

export interface TokenTable {
  /** Every token's bytes, back to back, in rank order. */
  bytes: Uint8Array;
  /** Token `r` is `bytes[offsets[r] .. offsets[r + 1])`. */
  offsets: Uint32Array;
  count: number;
}

export function readTiktokenFile(path: string): TokenTable {
  return parseTiktoken(readFileSync(path), path);
}

/**
 * Parses the text of a `.tiktoken` file. Errors name the file and the line. Two passes over the
 * file and no per-token objects: the first finds each rank's line and decoded length, the
 * second decodes every token straight into its place.
 */
export function parseTiktoken(file: Uint8Array, name = 'tiktoken file'): TokenTable {
  let lines = 1;
  for (let at = file.indexOf(0x0a); at >= 0; at = file.indexOf(0x0a, at + 1)) lines += 1;
  const lineOf = new Int32Array(lines).fill(-1); // rank → byte offset of its line
  const lineNumberOf = new Int32Array(lines);
  let count = 0;
  let line = 0;
  for (let at = 0; at < file.length; ) {
    line += 1;
    let end = file.indexOf(0x0a, at);
    if (end < 0) end = file.length;
    const lineEnd = end > at && file[end - 1] === 0x0d ? end - 1 : end;
    if (lineEnd > at) {
      const space = file.indexOf(0x20, at);
      if (space < 0 || space >= lineEnd) throw new Error(`${name}:${line}: expected "<base64> <rank>"`);
      const rank = parseRank(file, space + 1, lineEnd, name, line);
      if (rank >= lines || lineOf[rank] !== -1) throw new Error(`${name}:${line}: rank ${rank} is out of range or repeated`);
      lineOf[rank] = at;
      lineNumberOf[rank] = line;
      count += 1;
    }
    at = end + 1;
  }
  const offsets = new Uint32Array(count + 1);
  for (let rank = 0; rank < count; rank += 1) {
    const at = lineOf[rank] as number;
    if (at === -1) throw new Error(`${name}: ranks must be 0..${count - 1}, each once (rank ${rank} is missing)`);
    offsets[rank + 1] = (offsets[rank] as number) + decodedLength(file, at, file.indexOf(0x20, at));
  }
  const bytes = new Uint8Array(offsets[count] as number);
  for (let rank = 0; rank < count; rank += 1) {
    const at = lineOf[rank] as number;
    decodeBase64(file, at, file.indexOf(0x20, at), bytes, offsets[rank] as number, name, lineNumberOf[rank] as number);
  }
  return { bytes, offsets, count };
}

/** Bytes that base64 `src[from..to)` decodes to (padding excluded). */
function decodedLength(src: Uint8Array, from: number, to: number): number {
  let end = to;
  while (end > from && src[end - 1] === 0x3d) end -= 1;
  return Math.floor(((end - from) * 6) / 8);
}

const BASE64 = (() => {
  const table = new Int8Array(256).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i += 1) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

/** Decodes `src[from..to)` (base64 with `=` padding) into `out` at `at`; returns the new end. */
function decodeBase64(src: Uint8Array, from: number, to: number, out: Uint8Array, at: number, name: string, line: number): number {
  let bits = 0;
  let held = 0;
  let cursor = at;
  for (let i = from; i < to; i += 1) {
    const c = src[i] as number;
    if (c === 0x3d) break; // '=' padding ends the data
    const value = BASE64[c] as number;
    if (value < 0) throw new Error(`${name}:${line}: '${String.fromCharCode(c)}' is not base64`);
    bits = (bits << 6) | value;
    held += 6;
    if (held >= 8) {
      held -= 8;
      out[cursor] = (bits >> held) & 0xff;
      cursor += 1;
    }
  }
  if (cursor === at) throw new Error(`${name}:${line}: empty token`);
  return cursor;
}

function parseRank(src: Uint8Array, from: number, to: number, name: string, line: number): number {
  let value = 0;
  for (let i = from; i < to; i += 1) {
    const digit = (src[i] as number) - 0x30;
    if (digit < 0 || digit > 9) throw new Error(`${name}:${line}: rank is not a number`);
    value = value * 10 + digit;
  }
  if (to === from) throw new Error(`${name}:${line}: rank is missing`);
  return value;
}
