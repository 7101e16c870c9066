/**
 * Reading a file the user named (config, skill, dataset, events, ledger) without letting the
 * path hurt: only regular files are read (a FIFO would block a thread-pool thread forever, so
 * not even Ctrl-C could end the process; `/dev/zero` never ends), the size is capped below
 * what a JavaScript string can hold, and text must be UTF-8 (a bad byte is reported by
 * file:line:column instead of silently becoming U+FFFD).
 *
 * The file is opened with O_NONBLOCK and checked with fstat on the open descriptor, so a path
 * swapped for a FIFO between a check and the open cannot block either.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';
import { IsobudgetError, type ErrorLocation } from './errors.js';

export interface InputFileOptions {
  /** What the file is, for messages: `dataset file`, `config file`. */
  what: string;
  /** Prefix of error codes: `dataset` → dataset_not_found, dataset_not_regular, … */
  code: string;
  /** Largest size read (bytes). */
  maxBytes: number;
  /** Where errors point (default: the file itself), e.g. the config key that named it. */
  location?: ErrorLocation;
  /** Appended to messages, e.g. `` (set by `datasets.val` in x.yaml)``. */
  origin?: string;
  /** How to fix a missing file. */
  notFoundHint?: string;
}

/** 1 MiB, for size limits. */
export const MIB = 1024 * 1024;

/** Big enough for any real dataset, below V8's ~512 MiB string limit ("Invalid string length"). */
export const MAX_DATA_FILE_BYTES = 256 * MIB;
/** Configs, policies and skill files are hand-written: a few KB. */
export const MAX_SMALL_FILE_BYTES = 4 * MIB;

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

function fail(options: InputFileOptions, file: string, code: string, message: string, hint: string, cause?: unknown): IsobudgetError {
  return new IsobudgetError(`${options.code}_${code}`, `${message}: ${file}${options.origin ?? ''}`, {
    location: options.location ?? { file },
    hint,
    ...(cause === undefined ? {} : { cause }),
  });
}

function openError(error: unknown, file: string, options: InputFileOptions): IsobudgetError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return fail(options, file, 'not_found', `${options.what} not found`, options.notFoundHint ?? 'check the path', error);
  if (code === 'EISDIR') return notRegularError('a directory', file, options);
  return fail(options, file, 'unreadable', `cannot read ${options.what} (${code ?? (error as Error).message})`, 'check the path and its permissions', error);
}

/** What a path that is not a regular file is, for messages: `a directory`, `a FIFO (named pipe)`, `a device`. */
export function fileKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

function notRegularError(kind: string, file: string, options: InputFileOptions): IsobudgetError {
  return fail(options, file, 'not_regular', `${options.what} is ${kind}, not a regular file`, 'isobudget reads only regular files: save the data to a file and give its path');
}

function checkStats(stats: Stats, file: string, options: InputFileOptions): void {
  if (!stats.isFile()) throw notRegularError(fileKind(stats), file, options);
  if (stats.size > options.maxBytes) throw tooLarge(stats.size, file, options);
}

function tooLarge(size: number, file: string, options: InputFileOptions): IsobudgetError {
  const mib = (bytes: number): string => `${(bytes / MIB).toFixed(bytes < 10 * MIB ? 1 : 0)} MiB`;
  return fail(options, file, 'too_large', `${options.what} is ${size > options.maxBytes + 1 ? mib(size) : 'larger than the limit'}, over the ${mib(options.maxBytes)} limit`, 'split it into smaller files');
}

/** The bytes of a regular file of at most `options.maxBytes`. */
export function readInputFileSync(file: string, options: InputFileOptions): Buffer {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    throw openError(error, file, options);
  }
  try {
    const stats = fstatSync(fd);
    checkStats(stats, file, options);
    // Read to EOF, not to the size fstat saw: the file may grow (and must still be capped).
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.allocUnsafe(Math.min(Math.max(stats.size + 1, 64 * 1024), options.maxBytes + 1));
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      total += read;
      if (total > options.maxBytes) throw tooLarge(total, file, options);
      chunks.push(Buffer.from(chunk.subarray(0, read)));
    }
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
  } catch (error) {
    if (error instanceof IsobudgetError) throw error;
    throw openError(error, file, options);
  } finally {
    closeSync(fd);
  }
}

/**
 * An open handle on a regular file of at most `options.maxBytes`, for callers that stream it
 * (the caller closes it). Only the size at open time is checked.
 */
export async function openInputFile(file: string, options: InputFileOptions): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    throw openError(error, file, options);
  }
  try {
    checkStats(await handle.stat(), file, options);
    return handle;
  } catch (error) {
    await handle.close();
    if (error instanceof IsobudgetError) throw error;
    throw openError(error, file, options);
  }
}

/** The bytes of a regular file of at most `options.maxBytes`. */
export async function readInputFile(file: string, options: InputFileOptions): Promise<Buffer> {
  const handle = await openInputFile(file, options);
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(4 * MIB, options.maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > options.maxBytes) throw tooLarge(total, file, options);
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, total);
  } catch (error) {
    if (error instanceof IsobudgetError) throw error;
    throw openError(error, file, options);
  } finally {
    await handle.close();
  }
}

/** The text of a regular UTF-8 file of at most `options.maxBytes`: readInputFileSync, then decodeUtf8. */
export function readInputTextSync(file: string, options: InputFileOptions): string {
  return decodeUtf8(readInputFileSync(file, options), file, options);
}

/**
 * UTF-8 bytes → text, a leading byte-order mark dropped. Invalid UTF-8 is an error at the
 * line and column (in bytes) of the first bad byte.
 */
export function decodeUtf8(bytes: Buffer, file: string, options: Pick<InputFileOptions, 'what' | 'code'>): string {
  const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  if (!isUtf8(bytes)) {
    const offset = firstInvalidUtf8(bytes);
    let line = 1;
    let lineStart = 0;
    for (let i = bytes.indexOf(10); i !== -1 && i < offset; i = bytes.indexOf(10, i + 1)) {
      line += 1;
      lineStart = i + 1;
    }
    const byte = bytes[offset] ?? 0;
    throw new IsobudgetError(`${options.code}_not_utf8`, `${options.what} is not valid UTF-8: byte 0x${byte.toString(16).padStart(2, '0')} at line ${line}, column ${offset - lineStart + 1} (bytes)`, {
      location: { file, line, column: offset - lineStart + 1 },
      hint: 'save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8 FILE`); isobudget does not guess encodings',
    });
  }
  return bytes.toString('utf8', start);
}

/** Offset of the first byte that does not belong to a valid UTF-8 sequence (RFC 3629). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let code = b & (0x3f >> need);
    for (let k = 1; k <= need; k += 1) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
      code = (code << 6) | (next & 0x3f);
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
    if (code < min || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return i;
    i += need + 1;
  }
  return bytes.length;
}
