/**
 * Prompt bills as providers publish them, written out here apart from the estimator
 * (src/estimate/) so a test compares the gateway's reservation with an independent bill:
 * - OpenAI chat, cookbook "How to count tokens with tiktoken": 3 tokens per message + its
 *   values (+1 for a name), 3 to prime the reply; functions per num_tokens_for_tools (gpt-4o:
 *   func_init 7, prop_init 3, prop_key 3, enum_init −3, enum_item 3, func_end 12); images by
 *   the model's table (gpt-4o 85 + 170 a tile, gpt-4o-mini 2,833 + 5,667 a tile, detail low:
 *   the base).
 * - Anthropic Messages: the text of the system prompt, messages, tool calls and results and
 *   tool definitions, the tool-use system prompt when tools are present (Claude 4: 346 for
 *   auto, 313 for any/tool), the fixed definitions of Anthropic-defined tools (bash 245,
 *   text_editor 700), images ⌈w·h/750⌉.
 * `factor` scales the text (a foreign tokenizer: o200k × factor); published constants are not scaled.
 */
import { countTokens } from '../../src/core/tokens.js';

type Body = Record<string, unknown>;

export interface PublishedBillingOptions {
  /** Text tokens = ⌈o200k × factor⌉ (default 1: the model bills with o200k). */
  factor?: number;
}

export function publishedPromptBill(options: PublishedBillingOptions = {}): (route: string, body: Body) => number {
  const factor = options.factor ?? 1;
  const text = (value: string): number => Math.ceil(countTokens(value) * factor);
  return (route, body) => (route.endsWith('/messages') ? anthropicBill(body, text) : chatBill(body, text));
}

function chatBill(body: Body, text: (value: string) => number): number {
  const model = String(body['model'] ?? '');
  let total = 3;
  for (const message of (body['messages'] as Body[] | undefined) ?? []) {
    total += 3;
    for (const [key, value] of Object.entries(message)) {
      if (typeof value === 'string') total += text(value) + (key === 'name' ? 1 : 0);
      else if (Array.isArray(value)) {
        for (const part of value as Body[]) {
          if (part['type'] === 'text') total += text(String(part['text']));
          else if (part['type'] === 'image_url') total += openaiImage(model, part['image_url'] as Body);
        }
      }
    }
  }
  for (const tool of (body['tools'] as Body[] | undefined) ?? []) total += chatFunction(tool['function'] as Body, text);
  return total;
}

/** num_tokens_for_tools, for one function. */
function chatFunction(fn: Body, text: (value: string) => number): number {
  let total = 7 + text(`${String(fn['name'])}:${String(fn['description'] ?? '').replace(/\.$/, '')}`);
  const properties = ((fn['parameters'] as Body | undefined)?.['properties'] ?? {}) as Record<string, Body>;
  if (Object.keys(properties).length > 0) {
    total += 3;
    for (const [key, property] of Object.entries(properties)) {
      total += 3;
      const values = property['enum'] as string[] | undefined;
      if (values !== undefined) {
        total -= 3;
        for (const value of values) total += 3 + text(value);
      }
      total += text(`${key}:${String(property['type'])}:${String(property['description'] ?? '').replace(/\.$/, '')}`);
    }
  }
  return total + 12;
}

function openaiImage(model: string, image: Body): number {
  const [base, tile] = model.startsWith('gpt-4o-mini') ? [2833, 5667] : [85, 170];
  if (image['detail'] === 'low') return base;
  let [width, height] = pngSize(String(image['url']));
  const fit = Math.min(1, 2048 / Math.max(width, height));
  [width, height] = [width * fit, height * fit];
  const short = Math.min(1, 768 / Math.min(width, height));
  return base + tile * Math.ceil((width * short) / 512) * Math.ceil((height * short) / 512);
}

/** Width and height of a PNG data URL or base64 string; a remote image is 1024×1024. */
function pngSize(data: string): [number, number] {
  if (data.startsWith('http')) return [1024, 1024];
  const head = Buffer.from(data.slice(data.indexOf(',') + 1, data.indexOf(',') + 65), 'base64');
  return [head.readUInt32BE(16), head.readUInt32BE(20)];
}

function anthropicBill(body: Body, text: (value: string) => number): number {
  let total = 0;
  const system = body['system'];
  if (typeof system === 'string') total += text(system);
  else if (Array.isArray(system)) for (const block of system as Body[]) total += text(String(block['text']));
  const blocks = (content: unknown): void => {
    if (typeof content === 'string') {
      total += text(content);
      return;
    }
    for (const block of (content as Body[] | undefined) ?? []) {
      if (block['type'] === 'text') total += text(String(block['text']));
      else if (block['type'] === 'tool_use') total += text(String(block['name'])) + text(JSON.stringify(block['input']));
      else if (block['type'] === 'tool_result') blocks(block['content']);
      else if (block['type'] === 'image') {
        const [width, height] = pngSize(String((block['source'] as Body)['data']));
        const scale = Math.min(1, 1568 / Math.max(width, height));
        total += Math.ceil((width * scale * height * scale) / 750);
      }
    }
  };
  for (const message of (body['messages'] as Body[] | undefined) ?? []) blocks(message['content']);
  const tools = (body['tools'] as Body[] | undefined) ?? [];
  for (const tool of tools) {
    const type = String(tool['type'] ?? 'custom');
    if (type.startsWith('text_editor_')) total += 700;
    else if (type.startsWith('bash_')) total += 245;
    else total += text(String(tool['name'])) + text(String(tool['description'] ?? '')) + text(JSON.stringify(tool['input_schema'] ?? {}));
  }
  if (tools.length > 0) {
    const choice = (body['tool_choice'] as Body | undefined)?.['type'];
    total += choice === 'any' || choice === 'tool' ? 313 : 346;
  }
  return total;
}
