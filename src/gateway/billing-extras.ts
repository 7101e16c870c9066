/**
 * What a body bills beyond its text, pure: its images wherever they sit (found by the body
 * walk, reserved by image-tokens.ts) and, on the Responses
 * API, the response it continues (`previous_response_id`: that response's billed input +
 * output comes back as input, so the gateway reserves it on top). A continuation of a
 * response the gateway never saw settle cannot be bounded: `refuse` says why.
 */
import type { GenerationProtocol } from './routes.js';
import type { BodyWalk } from './body-walk.js';
import { imageSize, imageTokens } from './image-tokens.js';

type Body = Record<string, unknown>;

export interface BillingExtras {
  /** Tokens to reserve beyond the text's estimate (tokens). */
  tokens: number;
  /** Image data strings (base64 or data URLs), to leave out of the text count. */
  imageData: Set<string>;
  /** Why the body cannot be reserved for, or undefined. */
  refuse: string | undefined;
}

const NONE: BillingExtras = { tokens: 0, imageData: new Set(), refuse: undefined };

/**
 * `walk`: the body's walk (body-walk.ts), whose images are reserved here wherever they sit.
 * `previousBilled(id)`: the billed input + output of a response this gateway relayed, else undefined.
 */
export function billingExtras(protocol: GenerationProtocol, body: Body, walk: BodyWalk, previousBilled: (id: string) => number | undefined): BillingExtras {
  let tokens = 0;
  const previous = protocol === 'openai-responses' ? body['previous_response_id'] : undefined;
  if (previous !== undefined && previous !== null) {
    const billed = typeof previous === 'string' ? previousBilled(previous) : undefined;
    if (billed === undefined) {
      return { ...NONE, refuse: `'previous_response_id' ${JSON.stringify(previous)} names a response this gateway has not relayed, so the input it carries over cannot be bounded` };
    }
    tokens += billed;
  }
  if (walk.images.length === 0) return { ...NONE, tokens };
  const imageData = new Set<string>();
  for (const image of walk.images) {
    tokens += imageTokens(image.data === undefined ? undefined : sizeOfData(image.data), image.detail, body['model']);
    if (image.data !== undefined) imageData.add(image.data);
  }
  return { tokens, imageData, refuse: undefined };
}

function sizeOfData(data: string): ReturnType<typeof imageSize> {
  const comma = data.startsWith('data:') ? data.indexOf(',') + 1 : 0;
  // The header is near the start, except a JPEG's frame marker, which can follow a large EXIF block.
  const head = imageSize(Buffer.from(data.slice(comma, comma + 4096), 'base64'));
  return head ?? imageSize(Buffer.from(data.slice(comma), 'base64'));
}
