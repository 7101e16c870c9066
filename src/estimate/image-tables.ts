/**
 * Prompt tokens of one image, per model family, from the providers' published tables, pure.
 *
 * OpenAI ("Images and vision" guide, "Calculating costs"):
 * - Tile models: `detail: low` costs the base; otherwise the image is fitted into 2048×2048,
 *   scaled so its short side is at most 768, and costs base + tile × (512-px tiles). Base and
 *   tile: gpt-4o, gpt-4.1, gpt-4.5 85 + 170; gpt-4o-mini 2,833 + 5,667 (the same dollar price
 *   as gpt-4o at a 33× lower token price); o1, o1-pro, o3 75 + 150.
 * - Patch models (gpt-4.1-mini, gpt-4.1-nano, o4-mini, gpt-5-mini, gpt-5-nano): one patch per
 *   32×32 px, at most 1,536 (larger images are scaled down to fit), times a multiplier: 1.62
 *   (gpt-4.1-mini, gpt-5-mini), 2.46 (gpt-4.1-nano, gpt-5-nano), 1.72 (o4-mini). `detail`
 *   does not change it.
 * Anthropic ("Vision", "Calculate image costs"): ⌈w·h / 750⌉ after the long edge is scaled to
 * at most 1568 px. (Anthropic also scales images above ~1.15 MP / ~1,600 tokens down; the
 * reservation does not count on that.)
 * A family without a table of its own (unknown models, gpt-5) is reserved at the largest of
 * all tables: a router may serve any of them under that name. An image whose size cannot be
 * read (a remote URL, a file id) is reserved at the most its table can charge.
 */
import type { ModelFamily } from './model-family.js';

export interface ImageSize {
  /** Pixels. */
  width: number;
  /** Pixels. */
  height: number;
}

interface Tiles {
  base: number;
  tile: number;
}

const GPT_4O: Tiles = { base: 85, tile: 170 };
const GPT_4O_MINI: Tiles = { base: 2833, tile: 5667 };
const O_SERIES: Tiles = { base: 75, tile: 150 };
/** 2048×768 after both scalings: 4 × 2 tiles, the most one image can have. */
const MAX_TILES = 8;
const MAX_PATCHES = 1536;
const PATCH_MULTIPLIER: Partial<Record<ModelFamily, number>> = { 'gpt-4.1-mini': 1.62, 'gpt-4.1-nano': 2.46, 'o4-mini': 1.72 };

export const OPENAI_LOW_DETAIL = GPT_4O.base;
/** gpt-4o at 8 tiles: the most one image costs it at high detail. */
export const OPENAI_MAX = GPT_4O.base + GPT_4O.tile * MAX_TILES;
/** ⌈1568² / 750⌉: a square image at the largest long edge. */
export const ANTHROPIC_MAX = Math.ceil((1568 * 1568) / 750);
/** gpt-4o-mini at 8 tiles: the most any table charges for one image (48,169). */
export const IMAGE_MAX = GPT_4O_MINI.base + GPT_4O_MINI.tile * MAX_TILES;

/** Tiles of a tile model at high detail, after its two scalings. */
export function openaiTiles(size: ImageSize): number {
  let { width, height } = size;
  const fit = Math.min(1, 2048 / Math.max(width, height));
  width *= fit;
  height *= fit;
  const short = Math.min(1, 768 / Math.min(width, height));
  return Math.ceil((width * short) / 512) * Math.ceil((height * short) / 512);
}

function tileTokens(table: Tiles, size: ImageSize | undefined, detail: unknown): number {
  if (detail === 'low') return table.base;
  return table.base + table.tile * (size === undefined ? MAX_TILES : openaiTiles(size));
}

function patchTokens(multiplier: number, size: ImageSize | undefined): number {
  const patches = size === undefined ? MAX_PATCHES : Math.min(MAX_PATCHES, Math.ceil(size.width / 32) * Math.ceil(size.height / 32));
  return Math.ceil(patches * multiplier);
}

/** gpt-4o's table (kept for callers that name the vendor, not the model). */
export function openaiImageTokens(size: ImageSize | undefined, detail: unknown): number {
  return tileTokens(GPT_4O, size, detail);
}

export function anthropicImageTokens(size: ImageSize | undefined): number {
  if (size === undefined) return ANTHROPIC_MAX;
  const scale = Math.min(1, 1568 / Math.max(size.width, size.height));
  return Math.ceil((size.width * scale * size.height * scale) / 750);
}

/** The tokens one image bills on a model of `family` (the largest table when the family has none). */
export function familyImageTokens(family: ModelFamily, size: ImageSize | undefined, detail: unknown): number {
  switch (family) {
    case 'gpt-4o-mini':
      return tileTokens(GPT_4O_MINI, size, detail);
    case 'openai-tiles':
      return tileTokens(GPT_4O, size, detail);
    case 'openai-o-tiles':
      return tileTokens(O_SERIES, size, detail);
    case 'gpt-4.1-mini':
    case 'gpt-4.1-nano':
    case 'o4-mini':
      return patchTokens(PATCH_MULTIPLIER[family] as number, size);
    case 'claude':
      return anthropicImageTokens(size);
    default:
      return Math.max(
        tileTokens(GPT_4O_MINI, size, detail),
        tileTokens(GPT_4O, size, detail),
        tileTokens(O_SERIES, size, detail),
        patchTokens(2.46, size),
        anthropicImageTokens(size),
      );
  }
}
