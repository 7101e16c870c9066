/**
 * Images in a gateway body: their size from the first bytes of the data, and their prompt
 * tokens by the model's published table (src/estimate/image-tables.ts, where the tables and
 * their sources live). The model is the body's `model`; a name no table matches (or none) is
 * reserved at the largest table, since an OpenAI-compatible URL may serve any vendor's model.
 */
import { familyImageTokens, type ImageSize } from '../estimate/image-tables.js';
import { modelFamily } from '../estimate/model-family.js';

export { ANTHROPIC_MAX, anthropicImageTokens, IMAGE_MAX, OPENAI_LOW_DETAIL, OPENAI_MAX, openaiImageTokens, type ImageSize } from '../estimate/image-tables.js';

/** The reservation for one image on `model` (the body's `model` field; anything else is unknown). */
export function imageTokens(size: ImageSize | undefined, detail: unknown, model?: unknown): number {
  return familyImageTokens(modelFamily(typeof model === 'string' ? model : undefined), size, detail);
}

/** Width and height from the first bytes of a PNG, GIF, WebP or JPEG; undefined for anything else. */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length >= 24 && view.readUInt32BE(0) === 0x89504e47 && view.toString('latin1', 12, 16) === 'IHDR')
    return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
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
