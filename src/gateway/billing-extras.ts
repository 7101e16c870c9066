/**
 * What a body bills beyond its text, pure: its images (image-tokens.ts) and, on the Responses
 * API, the response it continues (`previous_response_id`: that response's billed input +
 * output comes back as input, so the gateway reserves it on top). A continuation of a
 * response the gateway never saw settle cannot be bounded: `refuse` says why.
 */
import type { GenerationProtocol } from './routes.js';
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

/** `previousBilled(id)`: the billed input + output of a response this gateway relayed, else undefined. */
export function billingExtras(protocol: GenerationProtocol, body: Body, raw: string, previousBilled: (id: string) => number | undefined): BillingExtras {
  let tokens = 0;
  const previous = protocol === 'openai-responses' ? body['previous_response_id'] : undefined;
  if (previous !== undefined && previous !== null) {
    const billed = typeof previous === 'string' ? previousBilled(previous) : undefined;
    if (billed === undefined) {
      return { ...NONE, refuse: `'previous_response_id' ${JSON.stringify(previous)} names a response this gateway has not relayed, so the input it carries over cannot be bounded` };
    }
    tokens += billed;
  }
  // Cheap test first: most bodies carry no image at all.
  if (!raw.includes('"image') && !raw.includes('"input_image"')) return { ...NONE, tokens };
  const imageData = new Set<string>();
  for (const part of contentParts([body['messages'], body['input']])) {
    const image = imageOf(part);
    if (image === undefined) continue;
    tokens += imageTokens(image.data === undefined ? undefined : sizeOfData(image.data), image.detail, body['model']);
    if (image.data !== undefined) imageData.add(image.data);
  }
  return { tokens, imageData, refuse: undefined };
}

/** An image part of any of the three protocols: its inline data (if inline) and detail. */
function imageOf(part: Body): { data: string | undefined; detail: unknown } | undefined {
  const type = part['type'];
  if (type === 'image_url') {
    const imageUrl = part['image_url'];
    const url = typeof imageUrl === 'string' ? imageUrl : isRecord(imageUrl) ? imageUrl['url'] : undefined;
    return { data: inline(url), detail: isRecord(imageUrl) ? imageUrl['detail'] : undefined };
  }
  if (type === 'input_image') return { data: inline(part['image_url']), detail: part['detail'] };
  if (type === 'image') {
    const source = part['source'];
    return { data: isRecord(source) && source['type'] === 'base64' && typeof source['data'] === 'string' ? source['data'] : undefined, detail: undefined };
  }
  return undefined;
}

/** A data URL or bare base64 string: the string; a remote URL: undefined (its size is unknown). */
function inline(url: unknown): string | undefined {
  return typeof url === 'string' && url.startsWith('data:') ? url : undefined;
}

function sizeOfData(data: string): ReturnType<typeof imageSize> {
  const comma = data.startsWith('data:') ? data.indexOf(',') + 1 : 0;
  // The header is near the start, except a JPEG's frame marker, which can follow a large EXIF block.
  const head = imageSize(Buffer.from(data.slice(comma, comma + 4096), 'base64'));
  return head ?? imageSize(Buffer.from(data.slice(comma), 'base64'));
}

/** Every content part (objects inside messages, input items and their content arrays). */
function* contentParts(roots: unknown[]): Generator<Body> {
  const stack: unknown[] = [...roots];
  while (stack.length > 0) {
    const item = stack.pop();
    if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
      continue;
    }
    if (!isRecord(item)) continue;
    yield item;
    for (const field of ['content', 'input']) {
      const inner = item[field];
      if (Array.isArray(inner)) stack.push(inner);
    }
  }
}

function isRecord(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
