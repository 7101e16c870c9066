/**
 * A ledger file's lines, a chunk's worth at a time, for `analyze --ledger` (seed-ledger.ts):
 * bytes checked as UTF-8 by line, "\r\n" and a lone "\r" ending a line as "\n" does.
 */
import { isUtf8 } from 'node:buffer';
import { IsobudgetError } from '../core/errors.js';
import { firstInvalidUtf8, openInputFile } from '../core/input-file.js';

/** Bytes read per chunk: large enough that a 1M-row ledger takes a few hundred reads. */
const CHUNK_BYTES = 1 << 20;

/**
 * The file's lines, a chunk's worth at a time. Why not readline: on a 1,000,000-row ledger
 * it cost ~1 s more than this (bench/analysis-ledger.mjs), in stream events, string decoding
 * of whole chunks and its line-break regex. Splitting on the '\n' byte is safe in UTF-8 (0x0A
 * never occurs inside a multi-byte character); as with readline's `crlfDelay: Infinity`,
 * "\r\n" and a lone '\r' also end a line.
 */
export async function* lineBatches(file: string): AsyncGenerator<string[]> {
  // A regular file only: a FIFO would block the read for ever. Streamed, so no size cap.
  const handle = await openInputFile(file, { what: 'ledger', code: 'ledger', maxBytes: Number.MAX_SAFE_INTEGER });
  try {
    let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let filled = 0;
    let physicalLines = 0;
    for (;;) {
      if (filled === buffer.length) {
        // One line longer than the buffer: grow it rather than split the line.
        const bigger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(bigger, 0, 0, filled);
        buffer = bigger;
      }
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
      const end = filled + bytesRead;
      const view = buffer.subarray(0, end);
      // Whole lines only (a chunk may end inside a character); bad bytes are an error by line.
      const whole = bytesRead === 0 ? end : view.lastIndexOf(10) + 1;
      if (!isUtf8(view.subarray(0, whole))) throw notUtf8(file, view, firstInvalidUtf8(view.subarray(0, whole)), physicalLines);
      const lines: string[] = [];
      let start = 0;
      for (let newline = view.indexOf(10, start); newline !== -1; newline = view.indexOf(10, start)) {
        pushLine(lines, view.toString('utf8', start, newline));
        start = newline + 1;
        physicalLines += 1;
      }
      if (bytesRead === 0) {
        if (start < end) pushLine(lines, view.toString('utf8', start, end));
        if (lines.length > 0) yield lines;
        return;
      }
      buffer.copy(buffer, 0, start, end);
      filled = end - start;
      if (lines.length > 0) yield lines;
    }
  } finally {
    await handle.close();
  }
}

function notUtf8(file: string, view: Buffer, offset: number, linesBefore: number): IsobudgetError {
  const lineStart = offset === 0 ? 0 : view.lastIndexOf(10, offset - 1) + 1;
  let line = linesBefore + 1;
  for (let i = view.indexOf(10); i !== -1 && i < offset; i = view.indexOf(10, i + 1)) line += 1;
  const column = offset - lineStart + 1;
  return new IsobudgetError('ledger_not_utf8', `the ledger is not valid UTF-8: byte 0x${(view[offset] ?? 0).toString(16).padStart(2, '0')} at line ${line}, column ${column} (bytes)`, {
    location: { file, line, column },
    hint: 'write the ledger as UTF-8; isobudget does not guess encodings',
  });
}

function pushLine(lines: string[], text: string): void {
  const body = text.endsWith('\r') ? text.slice(0, -1) : text;
  if (body.includes('\r')) lines.push(...body.split('\r'));
  else lines.push(body);
}
