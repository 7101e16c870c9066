/**
 * What a provider bills as text in a request body, and what its published rules add, pure:
 * a function of the parsed body, its protocol and its model. The JSON envelope (keys, quotes,
 * ids, sampling parameters) is not billed; message text, tool names, descriptions and
 * schemas, tool calls and results, and the system prompt are. Those strings are collected in
 * body order, as they are (never copied, joined or re-serialized), so a counter can find a
 * resent system prompt or tool list by comparison and cache (src/gateway/part-counts.ts).
 * Each string is counted one token above its text, which covers the quotes and separators a
 * provider renders around JSON values (tool inputs and schemas are rendered as JSON).
 *
 * Anything this walk does not know (a new content type, an unknown top-level field) is
 * counted whole, keys and values: an unknown field may be billed, and over-counting is safe.
 * Images are not text: they are counted here (`images`) and reserved by their tables.
 */
import { modelFamily } from './model-family.js';
import { definedToolTokens, forcesTool, PER_FUNCTION, PER_NAME, PER_PROPERTY, perMessageTokens, REPLY_PRIMING, toolPromptFloor, toolPromptTokens } from './published-overheads.js';

export type BodyProtocol = 'anthropic-messages' | 'openai-chat' | 'openai-responses';

type Body = Record<string, unknown>;

export interface BillableContent {
  /** The billable strings, in body order: what our tokenizer counts (each +1). */
  parts: string[];
  /** Tokens the published rules add beyond the text (framing, tool prompts, defined tools), at the most any family the model may be charges. */
  overhead: number;
  /** The part of it a bill surely holds (published, and by the model's own family): what is taken off a bill before its ratio is learned (tokens). */
  overheadFloor: number;
  /** Messages (input items) framed. */
  messages: number;
  /** Tool definitions offered. */
  tools: number;
  /** Image parts seen (reserved by their tables, not as text). */
  images: number;
}

/** Request parameters no provider bills as input. */
const UNBILLED = new Set([
  'model', 'max_tokens', 'max_completion_tokens', 'max_output_tokens', 'temperature', 'top_p', 'top_k', 'n', 'best_of', 'stream', 'stream_options', 'stop',
  'stop_sequences', 'presence_penalty', 'frequency_penalty', 'logit_bias', 'logprobs', 'top_logprobs', 'seed', 'user', 'metadata', 'store', 'service_tier',
  'parallel_tool_calls', 'reasoning_effort', 'reasoning', 'thinking', 'truncation', 'include', 'background', 'previous_response_id', 'safety_identifier',
  'prompt_cache_key', 'prompt_cache_retention', 'verbosity', 'context_management', 'container', 'modalities',
]);
/** Per content block for a model we cannot name (tokens): braces, a type, separators. */
const UNKNOWN_PER_BLOCK = 3;
/** Content part types whose data is an image (reserved by image-tables.ts). */
const IMAGE_PARTS = new Set(['image_url', 'input_image', 'image']);

class Collector {
  readonly parts: string[] = [];
  overhead = 0;
  images = 0;
  /** Content blocks and items (and objects inside them): a template may render each as JSON. */
  blocks = 0;

  push(value: unknown): void {
    if (typeof value === 'string') {
      if (value.length > 0) this.parts.push(value);
    } else if (typeof value === 'number' || typeof value === 'boolean') this.parts.push(String(value));
  }

  /**
   * Everything in `value`, keys and values, except cache markers. Image data here is counted
   * as text: only images in message content are reserved by their tables (billing-extras.ts).
   * Iterative (a client can nest arrays 100,000 deep): an object's keys and plain values come
   * in order, the objects and arrays inside it after them (the same order for the same body).
   */
  generic(root: unknown): void {
    const stack: unknown[] = [root];
    while (stack.length > 0) {
      const value = stack.pop();
      if (typeof value !== 'object' || value === null) {
        this.push(value);
        continue;
      }
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i -= 1) stack.push(value[i]);
        continue;
      }
      this.blocks += 1;
      const object = value as Body;
      for (const key in object) {
        if (key === 'cache_control') continue;
        this.parts.push(key);
        const inner = object[key];
        if (typeof inner === 'object' && inner !== null) stack.push(inner);
        else this.push(inner);
      }
    }
  }

  /** A JSON Schema: its keys and values, plus OpenAI's per-property framing. */
  schema(value: unknown): void {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const properties = (value as Body)['properties'];
      if (typeof properties === 'object' && properties !== null) this.overhead += PER_PROPERTY * Object.keys(properties).length;
    }
    this.generic(value);
  }
}

export function billableContent(protocol: BodyProtocol, body: Body): BillableContent {
  const model = typeof body['model'] === 'string' ? body['model'] : '';
  const family = modelFamily(model);
  const into = new Collector();
  let messages = 0;
  let tools = 0;
  let defined = 0;
  for (const key in body) {
    if (UNBILLED.has(key)) continue;
    const value = body[key];
    if (key === 'messages' && Array.isArray(value)) messages += protocol === 'anthropic-messages' ? anthropicMessages(into, value) : chatMessages(into, value);
    else if (key === 'input' && protocol === 'openai-responses') messages += responsesInput(into, value);
    else if (key === 'system' || key === 'instructions') {
      messages += 1;
      systemText(into, value);
    } else if ((key === 'tools' || key === 'functions') && Array.isArray(value)) {
      for (const tool of value) {
        const fixed = protocol === 'anthropic-messages' ? definedToolTokens((tool as Body | null)?.['type']) : undefined;
        if (fixed !== undefined) {
          defined += fixed;
          into.push((tool as Body)['name']);
        } else toolDefinition(into, tool);
        tools += 1;
      }
    } else into.generic(key === 'text' || key === 'response_format' ? value : { [key]: value });
  }
  const perMessage = perMessageTokens(family);
  const framing = messages * perMessage + REPLY_PRIMING + tools * PER_FUNCTION + into.overhead;
  const toolPrompt = tools > 0 ? toolPromptTokens(family, model, forcesTool(body['tool_choice'])) : 0;
  // A model we cannot name may be served behind a chat template that renders content blocks,
  // tool calls and their results as JSON (many open-weight templates do): 3 tokens of braces and
  // type a block. OpenAI and Anthropic render them as the text collected here.
  const blockFraming = family === 'unknown' ? UNKNOWN_PER_BLOCK * into.blocks : 0;
  const overhead = framing + toolPrompt + defined + blockFraming;
  // What a bill surely holds beyond the text, taken off it before its ratio is learned (taking
  // off more than was billed would teach too low a ratio): OpenAI's published message framing,
  // Anthropic's published tool prompt and tool definitions, nothing for a model we cannot name.
  const floorPrompt = tools > 0 ? toolPromptFloor(family, model, forcesTool(body['tool_choice'])) : 0;
  const overheadFloor = family === 'claude' ? floorPrompt + defined : family === 'unknown' ? 0 : messages * perMessage + REPLY_PRIMING;
  return { parts: into.parts, overhead, overheadFloor, messages, tools, images: into.images };
}

function systemText(into: Collector, value: unknown): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const block of value) textBlock(into, block);
  else into.generic(value);
}

/** A content block: a text block's text, an image counted (its table reserves it), other types whole. */
function textBlock(into: Collector, block: unknown): void {
  const part = block as Body | null;
  const type = part?.['type'];
  into.blocks += 1;
  if (typeof type === 'string' && IMAGE_PARTS.has(type)) into.images += 1;
  else if ((type === 'text' || type === 'input_text' || type === 'output_text') && typeof part?.['text'] === 'string') into.push(part['text']);
  else into.generic(block);
}

function chatMessages(into: Collector, list: unknown[]): number {
  for (const message of list) {
    if (typeof message !== 'object' || message === null) {
      into.generic(message);
      continue;
    }
    const fields = message as Body;
    for (const key in fields) {
      const value = fields[key];
      if (key === 'content') content(into, value);
      else if (key === 'name') {
        into.push(value);
        into.overhead += PER_NAME;
      } else if (key === 'role') into.push(value);
      else into.generic(value);
    }
  }
  return list.length;
}

/** Message content: a string, or parts (text parts by their text, images counted, others whole). */
function content(into: Collector, value: unknown): void {
  if (Array.isArray(value)) for (const part of value) textBlock(into, part);
  else if (typeof value === 'string') into.push(value);
  else into.generic(value);
}

function anthropicMessages(into: Collector, list: unknown[]): number {
  for (const message of list) {
    const fields = (typeof message === 'object' && message !== null ? message : {}) as Body;
    into.push(fields['role']);
    const blocks = fields['content'];
    if (!Array.isArray(blocks)) {
      content(into, blocks);
      continue;
    }
    for (const block of blocks) anthropicBlock(into, block);
  }
  return list.length;
}

function anthropicBlock(into: Collector, block: unknown): void {
  const part = (typeof block === 'object' && block !== null ? block : {}) as Body;
  switch (part['type']) {
    // Ids pair a call with its result: a provider renders them with the blocks.
    case 'tool_use':
      into.blocks += 1;
      into.push(part['id']);
      into.push(part['name']);
      into.generic(part['input']);
      return;
    case 'tool_result':
      into.blocks += 1;
      into.push(part['tool_use_id']);
      content(into, part['content']);
      return;
    case 'thinking':
      // The signature is an opaque check of the thinking, not text the model reads.
      into.push(part['thinking']);
      return;
    default:
      textBlock(into, block);
  }
}

function responsesInput(into: Collector, value: unknown): number {
  if (typeof value === 'string') {
    into.push(value);
    return 1;
  }
  if (!Array.isArray(value)) {
    into.generic(value);
    return 1;
  }
  for (const item of value) {
    const fields = (typeof item === 'object' && item !== null ? item : {}) as Body;
    const type = fields['type'] ?? 'message';
    if (type === 'message') {
      into.push(fields['role']);
      content(into, fields['content']);
    } else if (type === 'function_call') {
      into.blocks += 1;
      into.push(fields['call_id']);
      into.push(fields['name']);
      into.push(fields['arguments']);
    } else if (type === 'function_call_output' && typeof fields['output'] === 'string') {
      into.blocks += 1;
      into.push(fields['call_id']);
      into.push(fields['output']);
    } else into.generic(item);
  }
  return value.length;
}

/** A custom tool: name, description, schema (any protocol's shape), plus OpenAI's function framing. */
function toolDefinition(into: Collector, tool: unknown): void {
  const fields = (typeof tool === 'object' && tool !== null ? tool : {}) as Body;
  const inner = typeof fields['function'] === 'object' && fields['function'] !== null ? (fields['function'] as Body) : fields;
  for (const key in inner) {
    if (key === 'type' || key === 'cache_control' || key === 'strict') continue;
    const value = inner[key];
    if (key === 'parameters' || key === 'input_schema') into.schema(value);
    else into.generic(key === 'name' || key === 'description' ? value : { [key]: value });
  }
}
