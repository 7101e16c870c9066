import { describe, expect, test } from 'vitest';
import { anthropicImageTokens, ANTHROPIC_MAX, IMAGE_MAX, imageSize, imageTokens, OPENAI_MAX, openaiImageTokens } from './image-tokens.js';

describe('image tokens (published formulas)', () => {
  test.each([
    // OpenAI's worked examples: 1024×1024 high = 765; 2048×4096 high = 1105; low = 85.
    [{ width: 1024, height: 1024 }, 'high', 765],
    [{ width: 2048, height: 4096 }, 'high', 1105],
    [{ width: 4096, height: 8192 }, 'low', 85],
    [{ width: 512, height: 512 }, 'auto', 255],
  ] as const)('OpenAI %o detail %s → %i', (size, detail, tokens) => {
    expect(openaiImageTokens(size, detail)).toBe(tokens);
  });

  test('Anthropic: ⌈w·h/750⌉ (200×200 → 54, 1000×1000 → 1334), long edge fitted into 1568', () => {
    expect(anthropicImageTokens({ width: 200, height: 200 })).toBe(54);
    expect(anthropicImageTokens({ width: 1000, height: 1000 })).toBe(1334);
    expect(anthropicImageTokens({ width: 3136, height: 3136 })).toBe(ANTHROPIC_MAX);
  });

  test("a body image is reserved by its model's table; an unknown size at the most that table charges", () => {
    expect(openaiImageTokens(undefined, 'high')).toBe(OPENAI_MAX);
    expect(imageTokens(undefined, 'high', 'gpt-4o-2024-08-06')).toBe(OPENAI_MAX);
    expect(imageTokens(undefined, 'low', 'claude-sonnet-4-20250514')).toBe(ANTHROPIC_MAX);
    expect(imageTokens({ width: 1024, height: 1024 }, 'high', 'gpt-4o')).toBe(765);
    expect(imageTokens({ width: 1024, height: 1024 }, 'high', 'anthropic/claude-3-5-sonnet')).toBe(1399);
  });

  test('a model no table matches (or no model) is reserved at the largest table: gpt-4o-mini’s', () => {
    // detail: low does not shrink a patch model's bill: 1,536 patches × 2.46 (gpt-4.1-nano).
    expect(imageTokens(undefined, 'low')).toBe(Math.ceil(1536 * 2.46));
    expect(imageTokens(undefined, 'high', 'qwen-vl-max')).toBe(IMAGE_MAX);
    expect(imageTokens({ width: 1024, height: 1024 }, 'high', 'm')).toBe(2833 + 5667 * 4);
  });

  test('sizes from PNG, GIF and JPEG headers; anything else is unknown', () => {
    const png = Buffer.alloc(24);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png);
    png.write('IHDR', 12, 'latin1');
    png.writeUInt32BE(640, 16);
    png.writeUInt32BE(480, 20);
    expect(imageSize(png)).toEqual({ width: 640, height: 480 });
    const gif = Buffer.from('GIF89a\x20\x03\x58\x02', 'latin1');
    expect(imageSize(gif)).toEqual({ width: 800, height: 600 });
    // SOI, an APP0 segment of 16 bytes, then SOF0 with height 300, width 400.
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...Array(14).fill(0), 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x2c, 0x01, 0x90, 0x03]);
    expect(imageSize(jpeg)).toEqual({ width: 400, height: 300 });
    expect(imageSize(Buffer.from('not an image'))).toBeUndefined();
  });
});
