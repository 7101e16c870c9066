/**
 * One walk over the whole parsed request body, pure (issue 20 items 2, 3 and 8). Every object
 * anywhere is visited — function and computer call outputs, tool results, nested content — so
 * what the upstream bills by type is found wherever a client puts it, and nothing is decided
 * from the raw text (`"\u0069mage_url"` parses to `image_url` and is found like it).
 *
 * It gathers:
 * - every image part (any protocol's shape), for the reservation by the image formulas;
 * - the first part no bound is known for (audio, files, PDFs, stored-item references);
 * - the number of keys of every object: compared with the keys in the raw text
 *   (`rawKeyCount`), it shows a duplicate key that `JSON.parse` dropped but an upstream
 *   reading the first duplicate would act on.
 *
 * Not judged (only counted): tool definitions (`tools`: their hosted types are judged in
 * unestimable-fields.ts), schemas and metadata, and the arguments a model wrote for a tool
 * (`tool_use.input`): all are billed as text, whatever `type` they hold.
 */

type Body = Record<string, unknown>;

export interface ImagePart {
  /** Inline data (a data URL or bare base64), or undefined for a remote URL or a file id (size unknown). */
  data: string | undefined;
  /** OpenAI's `detail` (`low` is a fixed price), undefined elsewhere. */
  detail: unknown;
}

export interface BodyWalk {
  /** Keys of every object in the body, at any depth. */
  keys: number;
  images: ImagePart[];
  /** The first content part no bound is known for, described for the refusal; undefined when none. */
  unestimable: string | undefined;
}

/** Content parts that carry audio or files: billed by content the gateway cannot count. */
const FILE_PARTS = new Set(['input_audio', 'file', 'input_file', 'container_upload']);
/** Top-level fields that hold definitions, schemas or metadata, not content. */
const NOT_CONTENT = new Set(['tools', 'tool_choice', 'metadata', 'response_format', 'text', 'output_config', 'context_management', 'thinking', 'reasoning', 'stream_options']);
/** Blocks whose `input` is a model's tool arguments (text to the biller). */
const TOOL_CALLS = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

export function walkBody(body: Body): BodyWalk {
  const walk: BodyWalk = { keys: 0, images: [], unestimable: undefined };
  // Two stacks instead of pairs: no array per visited value.
  const values: unknown[] = [];
  const judged: boolean[] = [];
  for (const name in body) {
    walk.keys += 1;
    const value = body[name];
    if (typeof value === 'object' && value !== null) {
      values.push(value);
      judged.push(!NOT_CONTENT.has(name));
    }
  }
  while (values.length > 0) {
    const value = values.pop();
    const judge = judged.pop() === true;
    if (Array.isArray(value)) {
      for (const element of value) {
        if (typeof element !== 'object' || element === null) continue;
        values.push(element);
        judged.push(judge);
      }
      continue;
    }
    const part = value as Body;
    const type = judge ? part['type'] : undefined;
    if (typeof type === 'string') judgePart(walk, part, type);
    const toolCall = typeof type === 'string' && TOOL_CALLS.has(type);
    for (const name in part) {
      walk.keys += 1;
      const inner = part[name];
      if (typeof inner !== 'object' || inner === null) continue;
      values.push(inner);
      judged.push(judge && !(toolCall && name === 'input'));
    }
  }
  return walk;
}

function judgePart(walk: BodyWalk, part: Body, type: string): void {
  const image = imageOf(part, type);
  if (image !== undefined) {
    walk.images.push(image);
    return;
  }
  if (walk.unestimable !== undefined) return;
  if (FILE_PARTS.has(type)) walk.unestimable = `a '${type}' content part (audio and files are billed by content the gateway cannot count)`;
  else if (type === 'document' && !isTextDocument(part['source'])) walk.unestimable = "a 'document' block that is not plain text (PDFs and files are billed per page as text and image)";
  else if (type === 'item_reference') walk.unestimable = "an 'item_reference' input item (it names a stored item whose content the gateway cannot see)";
}

/** An image part of any of the three protocols (and a Responses computer screenshot). */
function imageOf(part: Body, type: string): ImagePart | undefined {
  if (type === 'image_url') {
    const imageUrl = part['image_url'];
    const url = typeof imageUrl === 'string' ? imageUrl : isRecord(imageUrl) ? imageUrl['url'] : undefined;
    return { data: inline(url), detail: isRecord(imageUrl) ? imageUrl['detail'] : undefined };
  }
  if (type === 'input_image' || type === 'computer_screenshot') return { data: inline(part['image_url']), detail: part['detail'] };
  if (type === 'image') {
    const source = part['source'];
    return { data: isRecord(source) && source['type'] === 'base64' && typeof source['data'] === 'string' ? source['data'] : undefined, detail: undefined };
  }
  return undefined;
}

/** A data URL: the string; a remote URL: undefined (its size is unknown). */
function inline(url: unknown): string | undefined {
  return typeof url === 'string' && url.startsWith('data:') ? url : undefined;
}

function isTextDocument(source: unknown): boolean {
  const type = isRecord(source) ? source['type'] : undefined;
  return type === 'text' || type === 'content';
}

function isRecord(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The raw side of the duplicate-key check (raw-keys.ts). */
export { rawKeyCount } from './raw-keys.js';
