/**
 * A request's shape, the bucket its billed/counted ratio is learned in (billing-ratios.ts),
 * pure and cheap (no tokenizer, one native byte count). Foreign tokenizers differ from o200k
 * most by script (CJK costs them more than Latin text) and by how much of a bill is per-message
 * template (many short turns against one long page), and tool schemas and images bill by rules
 * of their own: calls that differ in those teach each other nothing.
 */

/** Characters of a long string read to judge its script, at each of three places. */
const SAMPLE = 1024;

export interface ShapeInput {
  protocol: string;
  /** The billable strings (billable-content.ts). */
  parts: readonly string[];
  messages: number;
  tools: number;
  images: number;
}

export function bodyShape(input: ShapeInput): string {
  let chars = 0;
  let sampled = 0;
  let extraBytes = 0;
  for (const part of input.parts) {
    chars += part.length;
    sampled += sampledChars(part.length);
    extraBytes += sampledExtraBytes(part);
  }
  return shapeOf({ protocol: input.protocol, chars, sampled, extraBytes, messages: input.messages, tools: input.tools, images: input.images });
}

/** What a body's strings add up to for its shape: `bodyShape` without the strings (a caller may remember each string's share). */
export interface ShapeTotals {
  protocol: string;
  /** Characters of all the strings. */
  chars: number;
  /** Characters read to judge the script (`sampledChars`, summed). */
  sampled: number;
  /** UTF-8 bytes beyond one per UTF-16 unit in what was read (`sampledExtraBytes`, summed). */
  extraBytes: number;
  messages: number;
  tools: number;
  images: number;
}

/**
 * Characters of a string of `length` read to judge the script: the script is judged on the
 * strings that make up the text (keys and roles are ASCII anyway), a long one by its start,
 * middle and end (a 48 KB system prompt is read every call).
 */
export function sampledChars(length: number): number {
  return length < 64 ? 0 : Math.min(length, 3 * SAMPLE);
}

/** UTF-8 bytes beyond one per UTF-16 unit in what is read of `part`: 0 for ASCII, 2 per CJK character. */
export function sampledExtraBytes(part: string): number {
  if (part.length < 64) return 0;
  if (part.length <= 3 * SAMPLE) return Buffer.byteLength(part, 'utf8') - part.length;
  let extra = 0;
  for (const piece of [part.slice(0, SAMPLE), part.slice((part.length - SAMPLE) >> 1, (part.length + SAMPLE) >> 1), part.slice(-SAMPLE)]) extra += Buffer.byteLength(piece, 'utf8') - piece.length;
  return extra;
}

export function shapeOf(totals: ShapeTotals): string {
  const { sampled, extraBytes } = totals;
  const wide = sampled === 0 ? 0 : extraBytes / (2 * sampled);
  const script = wide < 0.05 ? 'latin' : wide < 0.5 ? 'mixed' : 'wide';
  // Characters per message, in powers of 4: 'short turns' and 'one page' land far apart.
  const perMessage = totals.chars / Math.max(1, totals.messages);
  const density = Math.min(8, Math.floor(Math.log(Math.max(1, perMessage)) / Math.log(4)));
  return `${totals.protocol}|${totals.tools > 0 ? 'tools' : 'text'}${totals.images > 0 ? '+images' : ''}|${script}|d${density}`;
}
