/**
 * The o200k_base encoding (GPT-4o and later): OpenAI's published vocabulary, as shipped in the
 * `gpt-tokenizer` package's `data/o200k_base.tiktoken`, and tiktoken's split pattern. Loaded on
 * first use, so commands that never count tokens never pay for it.
 */
import { createRequire } from 'node:module';
import { createBpeEncoder, type BpeEncoder } from './bpe-encoder.js';
import { o200kAsciiPieceEnd } from './o200k-ascii-pieces.js';
import { readTiktokenFile } from './token-table.js';

/** tiktoken `openai_public.py`, `o200k_base()` pat_str. o200k-ascii-pieces.ts decides it by hand on ASCII; keep the two in step. */
export const O200K_SPLIT = new RegExp(
  [
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?`,
    String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?`,
    String.raw`\p{N}{1,3}`,
    String.raw` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
    String.raw`\s*[\r\n]+`,
    String.raw`\s+(?!\S)`,
    String.raw`\s+`,
  ].join('|'),
  'gu',
);

let encoder: BpeEncoder | undefined;

export function o200k(): BpeEncoder {
  if (encoder === undefined) {
    const file = createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken');
    encoder = createBpeEncoder(readTiktokenFile(file), O200K_SPLIT, o200kAsciiPieceEnd);
  }
  return encoder;
}
