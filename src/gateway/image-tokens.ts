/**
 * Prompt tokens of an image, by the providers' published formulas, pure:
 * - OpenAI (GPT-4o family): `detail: low` is 85; otherwise the image is fitted into
 *   2048×2048, then scaled so its short side is at most 768, and costs 85 + 170 per 512-px tile.
 * - Anthropic: ⌈w·h / 750⌉, after scaling the long edge to at most 1568 px. (Anthropic says it
 *   also scales images above ~1,600 tokens down; the reservation does not count on that.)
 * An OpenAI-compatible URL may serve Claude (and the reverse through adapters), so a body's
 * image is reserved at the larger of the two. An image whose size cannot be read (a remote
 * URL, a file id) is reserved at the most either formula can charge.
 */

export interface ImageSize {
  width: number;
  height: number;
}

export const OPENAI_LOW_DETAIL = 85;
/** 85 + 170 × 8 tiles (2048×768 after scaling): the most one image costs at high detail. */
export const OPENAI_MAX = 85 + 170 * 8;
/** ⌈1568² / 750⌉: a square image at the largest long edge. */
export const ANTHROPIC_MAX = Math.ceil((1568 * 1568) / 750);

export function openaiImageTokens(size: ImageSize | undefined, detail: unknown): number {
  if (detail === 'low') return OPENAI_LOW_DETAIL;
  if (size === undefined) return OPENAI_MAX;
  let { width, height } = size;
  const fit = Math.min(1, 2048 / Math.max(width, height));
  width *= fit;
  height *= fit;
  const short = Math.min(1, 768 / Math.min(width, height));
  width *= short;
  height *= short;
  return 85 + 170 * Math.ceil(width / 512) * Math.ceil(height / 512);
}

export function anthropicImageTokens(size: ImageSize | undefined): number {
  if (size === undefined) return ANTHROPIC_MAX;
  const scale = Math.min(1, 1568 / Math.max(size.width, size.height));
  return Math.ceil((size.width * scale * size.height * scale) / 750);
}

/** The reservation for one image: the larger formula (see above). */
export function imageTokens(size: ImageSize | undefined, detail: unknown): number {
  return Math.max(openaiImageTokens(size, detail), anthropicImageTokens(size));
}

/** Width and height from the first bytes of a PNG, GIF, WebP or JPEG; undefined for anything else. */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length >= 24 && view.readUInt32BE(0) === 0x89504e47 && view.toString('latin1', 12, 16) === 'IHDR') return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
  if (view.length >= 10 && view.toString('latin1', 0, 3) === 'GIF') return { width: view.readUInt16LE(6), height: view.readUInt16LE(8) };
  if (view.length >= 30 && view.toString('latin1', 0, 4) === 'RIFF' && view.toString('latin1', 8, 12) === 'WEBP') return webpSize(view);
  if (view.length >= 4 && view[0] === 0xff && view[1] === 0xd8) return jpegSize(view);
  return undefined;
}

function webpSize(view: Buffer): ImageSize | undefined {
  const chunk = view.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + view.readUIntLE(24, 3), height: 1 + view.readUIntLE(27, 3) };
  if (chunk === 'VP8 ' && view.length >= 30) return { width: view.readUInt16LE(26) & 0x3fff, height: view.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L' && view.length >= 25) {
    const bits = view.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  return undefined;
}

/** Walks the JPEG segments to the first start-of-frame marker. */
function jpegSize(view: Buffer): ImageSize | undefined {
  let at = 2;
  while (at + 9 < view.length) {
    if (view[at] !== 0xff) return undefined;
    const marker = view[at + 1] as number;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = view.readUInt16BE(at + 2);
    const frame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (frame) return { height: view.readUInt16BE(at + 5), width: view.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  return undefined;
}
