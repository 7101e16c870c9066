/**
 * A hostile-but-real upstream on 127.0.0.1 for gateway tests, shaped like vLLM and the
 * OpenAI-compatible routers built on it: it honours `max_completion_tokens` over `max_tokens`
 * (and either on any route), coerces string numbers (`"5000"`, `"8"`), generates `n` and
 * `best_of` sequences each up to the cap — or without end when there is none — and can bill
 * more prompt than it was sent (`promptFactor`, a foreign tokenizer). It bills when a request
 * arrives, as an upstream that keeps generating after its caller has gone would.
 *
 * Bills are attributed to the caller's `x-claude-code-session-id` header (the gateway passes
 * it through; the virtual key never reaches the upstream).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, createGzip, deflateSync, gzipSync } from 'node:zlib';
import { countTokens } from '../../src/core/tokens.js';

export interface MockUpstreamOptions {
  /** Prompt billed = ⌈tokens of the body's messages × promptFactor⌉ (default 1). */
  promptFactor?: number;
  /** Tokens generated per sequence when the cap allows more (default: the cap itself, the worst case). */
  answerTokens?: number;
  /** Generated when no cap field is present (default 50,000: "until the context ends"). */
  uncappedTokens?: number;
  /** Wait before answering (ms, or a function of the request's 1-based index for a wait per request). */
  delayMs?: number | ((index: number) => number);
  /** Never answer (a hung upstream): the request is held until the socket closes. */
  hang?: boolean;
  /** Streams: send the first event, then this much silence before the rest (ms). */
  stallMs?: number;
  /** Streams: echo this text in the answer, cut in two across two writes. */
  echo?: string;
  /** Who a bill is for, from the request body (default: the `x-claude-code-session-id` header). */
  whoOf?: (body: Record<string, unknown>) => string;
  /** After billing request `index` (1-based): answer 500, or cut the JSON body mid-way and close the socket. */
  failAfterBilling?: (index: number) => 'http500' | 'cut-body' | undefined;
  /** Non-streamed chat answers: the `usage` object sent instead of the true one (a buggy or hostile upstream). */
  usageOf?: (prompt: number, completion: number) => Record<string, unknown>;
  /** Reads cap fields as a first-duplicate-wins JSON reader does (Go's encoding/json keeps the last; many hand-written readers the first). */
  firstDuplicate?: boolean;
  /** Compresses every answer whatever the request's accept-encoding said (`x-unknown`: the plain bytes, labelled with a coding nobody knows). */
  compress?: 'gzip' | 'deflate' | 'br' | 'x-unknown';
  /** Echoes the credential it was sent (its own key, as a careless upstream does in errors) in every answer; with `status` too. */
  echoCredential?: boolean;
  /** Answers with this status (e.g. 401) and an error body instead of a completion. */
  status?: number;
  /** Reports usage as a buggy or hostile upstream might: negative completion, a total below its parts, or a trailing zero usage event. */
  usage?: 'negative' | 'short-total' | 'trailing-zero';
  /** Streams: after the first event, only keep-alive pings every this many ms, for ever. */
  pingEveryMs?: number;
  /** Bills the prompt by this rule instead (e.g. a provider's published one: published-billing.ts); a continuation's input is added on top. */
  promptBill?: (route: string, body: Record<string, unknown>) => number;
}

export interface MockBill {
  who: string;
  route: string;
  prompt: number;
  completion: number;
  total: number;
}

export interface MockUpstream {
  url: string;
  bills: MockBill[];
  /** Requests whose socket closed before the answer was complete. */
  abandoned: number;
  /** Requests received (headers and body) per route. */
  received: number;
  /** The path and query of every request received. */
  urls: string[];
  billedBy(who: string): number;
  set(options: MockUpstreamOptions): void;
  close(): Promise<void>;
}

type Body = Record<string, unknown>;

/** A string number becomes a number, as vLLM's and many routers' validators do. */
function coerce(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : NaN;
  return Number.isFinite(n) ? Math.floor(n) : undefined;
}

/** The body's prompt text; image data is not text (it is billed by its own formula, imageBill). */
function promptText(body: Body): string {
  return JSON.stringify([body['system'] ?? '', body['messages'] ?? body['input'] ?? '', body['instructions'] ?? '', body['tools'] ?? ''], (_key, value: unknown) =>
    typeof value === 'string' && (value.startsWith('data:image/') || value.startsWith('iVBORw0KGgo')) ? '' : value,
  );
}

/**
 * What the providers bill beyond the body's text, by their documented behaviour (sizes here
 * are the mock's choice): a stored item an `item_reference` names, a file, web search results
 * (OpenRouter `:online` and the `web` plugin, chat `web_search_options`).
 */
export const HIDDEN_BILLS = { storedItem: 2_000, file: 3_000, search: 4_000 } as const;

function hiddenBill(body: Body): number {
  let total = 0;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const part = value as Body;
    if (part['type'] === 'item_reference') total += HIDDEN_BILLS.storedItem;
    if (part['type'] === 'input_file' || part['type'] === 'file') total += HIDDEN_BILLS.file;
    for (const field of ['content', 'input', 'messages', 'output']) if (part[field] !== undefined) visit(part[field]);
  };
  visit(body['messages'] ?? body['input']);
  const plugins = Array.isArray(body['plugins']) ? (body['plugins'] as Body[]) : [];
  if (String(body['model']).endsWith(':online') || plugins.some((plugin) => plugin['id'] === 'web') || body['web_search_options'] !== undefined) total += HIDDEN_BILLS.search;
  return total;
}

/** The first value of a top-level key in the raw text, as a first-duplicate-wins reader sees it. */
function firstNumber(text: string, key: string): number | undefined {
  const match = new RegExp(`"${key}"\\s*:\\s*"?(\\d+)`).exec(text);
  return match === null ? undefined : Number(match[1]);
}

/**
 * Images as the providers bill them (their published formulas, written out here apart from the
 * gateway's): Anthropic ⌈w·h/750⌉ after fitting the long edge into 1568; OpenAI 85 + 170 per
 * 512-px tile after fitting into 2048 and the short side into 768 (85 at detail low). Sizes
 * come from the PNG header; a remote image is billed as 1024×1024.
 */
function imageBill(route: string, body: Body): number {
  let total = 0;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const part = value as Body;
    const source = part['source'] as Body | undefined;
    const screenshot = part['type'] === 'input_image' || part['type'] === 'computer_screenshot';
    // An image by file id is billed as a remote one (1024×1024 here).
    const url = part['type'] === 'image_url' ? ((part['image_url'] as Body)['url'] as string) : screenshot ? ((part['image_url'] as string | undefined) ?? 'file:') : undefined;
    const detail = part['type'] === 'image_url' ? (part['image_url'] as Body)['detail'] : part['detail'];
    const data = part['type'] === 'image' && source?.['type'] === 'base64' ? (source['data'] as string) : url?.startsWith('data:') ? url.slice(url.indexOf(',') + 1) : undefined;
    if (part['type'] === 'image' || url !== undefined) {
      const png = data === undefined ? undefined : Buffer.from(data.slice(0, 64), 'base64');
      let width = png === undefined ? 1024 : png.readUInt32BE(16);
      let height = png === undefined ? 1024 : png.readUInt32BE(20);
      if (route.endsWith('/messages')) {
        const scale = Math.min(1, 1568 / Math.max(width, height));
        total += Math.ceil((width * scale * height * scale) / 750);
      } else if (detail === 'low') total += 85;
      else {
        const fit = Math.min(1, 2048 / Math.max(width, height));
        [width, height] = [width * fit, height * fit];
        const short = Math.min(1, 768 / Math.min(width, height));
        total += 85 + 170 * Math.ceil((width * short) / 512) * Math.ceil((height * short) / 512);
      }
    }
    // Images in tool outputs (function_call_output arrays, computer_call_output screenshots) bill like any other.
    for (const field of ['content', 'input', 'messages', 'output']) if (part[field] !== undefined) visit(part[field]);
  };
  visit(body['messages'] ?? body['input']);
  return total + hiddenBill(body);
}

export async function startMockUpstream(initial: MockUpstreamOptions = {}): Promise<MockUpstream> {
  let options = initial;
  const bills: MockBill[] = [];
  const state = { abandoned: 0, received: 0 };
  const urls: string[] = [];
  const responseBills = new Map<string, number>();
  let responses = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => void answer(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  async function answer(request: IncomingMessage, response: ServerResponse, text: string): Promise<void> {
    state.received += 1;
    urls.push(request.url ?? '');
    let finished = false;
    response.on('close', () => {
      if (!finished) state.abandoned += 1;
    });
    response.on('finish', () => (finished = true));
    const route = (request.url ?? '').split('?')[0] ?? '';
    const body = JSON.parse(text) as Body;
    const read = (key: string): number | undefined => (options.firstDuplicate ? firstNumber(text, key) : coerce(body[key]));
    const cap = read('max_completion_tokens') ?? read('max_tokens') ?? read('max_output_tokens');
    const sequences = Math.max(1, coerce(body['n']) ?? 1, coerce(body['best_of']) ?? 1);
    const perSequence = cap === undefined ? (options.uncappedTokens ?? 50_000) : Math.min(cap, options.answerTokens ?? cap);
    // A continued response carries its predecessor's input and output back in as input.
    const previous = typeof body['previous_response_id'] === 'string' ? responseBills.get(body['previous_response_id']) ?? 0 : 0;
    const prompt = (options.promptBill ? options.promptBill(route, body) : Math.ceil(countTokens(promptText(body)) * (options.promptFactor ?? 1)) + imageBill(route, body)) + previous;
    const completion = perSequence * sequences;
    const who = options.whoOf?.(body) ?? String(request.headers['x-claude-code-session-id'] ?? 'unknown');
    bills.push({ who, route, prompt, completion, total: prompt + completion });
    if (options.hang) return;
    const index = state.received;
    const delay = typeof options.delayMs === 'function' ? options.delayMs(index) : options.delayMs ?? 0;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (response.destroyed) return;
    const fault = options.failAfterBilling?.(index);
    if (fault === 'http500') {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error' } }));
      return;
    }
    if (fault === 'cut-body') {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
      response.write('{"id":"c1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assis');
      response.destroy();
      return;
    }
    const usage = { prompt, completion, id: `resp_${(responses += 1)}` };
    responseBills.set(usage.id, prompt + completion);
    const credential = String(request.headers['x-api-key'] ?? request.headers.authorization ?? '').replace(/^Bearer /, '');
    const echo = options.echoCredential ? credential : undefined;
    if (options.status !== undefined) {
      return send(response, options.status, 'application/json', JSON.stringify({ error: { message: `Incorrect API key provided: ${echo ?? '?'}`, type: 'invalid_request_error' } }));
    }
    if (body['stream'] === true) return stream(response, route, usage, body, echo);
    const answerBody = tamper(jsonAnswer(route, usage, echo), options.usage);
    if (options.usageOf && !route.endsWith('/messages') && !route.endsWith('/responses')) answerBody['usage'] = options.usageOf(prompt, completion);
    send(response, 200, 'application/json', JSON.stringify(answerBody));
  }
  function send(response: ServerResponse, status: number, type: string, text: string): void {
    const coding = options.compress;
    if (coding === undefined) {
      response.writeHead(status, { 'content-type': type });
      response.end(text);
      return;
    }
    const zipped = coding === 'gzip' ? gzipSync(text) : coding === 'deflate' ? deflateSync(text) : coding === 'br' ? brotliCompressSync(text) : Buffer.from(text);
    response.writeHead(status, { 'content-type': type, 'content-encoding': coding, 'content-length': String(zipped.length) });
    response.end(zipped);
  }
  async function stream(response: ServerResponse, route: string, usage: Usage, body: Body, credential: string | undefined): Promise<void> {
    const events = sseAnswer(route, usage, body, credential ?? options.echo ?? 'ok', options.usage);
    if (options.compress === 'gzip') {
      // A compressed stream: one gzip member, flushed per event, as a compressing proxy sends it.
      response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const zip = createGzip();
      zip.pipe(response);
      for (const event of events) {
        zip.write(event);
        await new Promise<void>((resolve) => zip.flush(() => resolve()));
      }
      zip.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const [first, ...rest] = events;
    response.write(first);
    if (options.pingEveryMs !== undefined) {
      const every = options.pingEveryMs;
      // Keep-alives only, until the caller goes away.
      while (!response.destroyed) {
        await new Promise((resolve) => setTimeout(resolve, every));
        if (!response.destroyed) response.write(route.endsWith('/messages') ? 'event: ping\ndata: {"type": "ping"}\n\n' : ': keep-alive\n\n');
      }
      return;
    }
    if (options.stallMs) await new Promise((resolve) => setTimeout(resolve, options.stallMs));
    if (response.destroyed) return;
    const echo = options.echo;
    for (const event of rest) {
      // The echo is cut in two by a write boundary (and a pause, so the halves are two chunks).
      const at = echo === undefined ? -1 : event.indexOf(echo);
      if (echo !== undefined && at !== -1) {
        const cut = at + Math.floor(echo.length / 2);
        response.write(event.slice(0, cut));
        await new Promise((resolve) => setTimeout(resolve, 150));
        response.write(event.slice(cut));
      } else response.write(event);
    }
    response.end();
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bills,
    get abandoned() {
      return state.abandoned;
    },
    get received() {
      return state.received;
    },
    urls,
    billedBy: (who) => bills.filter((bill) => bill.who === who).reduce((sum, bill) => sum + bill.total, 0),
    set: (next) => {
      options = next;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

interface Usage {
  prompt: number;
  completion: number;
  /** The response id (Responses API). */
  id: string;
}

/** A usage object as a buggy or hostile upstream reports it (the bill itself is unchanged). */
function tamper(answer: Body, how: MockUpstreamOptions['usage']): Body {
  const usage = answer['usage'] as Body | undefined;
  if (how === undefined || usage === undefined) return answer;
  for (const [field, value] of Object.entries(usage)) {
    if (typeof value !== 'number') continue;
    if (how === 'negative' && /completion|output/.test(field)) usage[field] = -value;
    if (how === 'negative' && field === 'total_tokens') usage[field] = 0;
    if (how === 'short-total' && field === 'total_tokens') usage[field] = 1;
  }
  return answer;
}

function jsonAnswer(route: string, { prompt, completion, id }: Usage, text = 'ok'): Body {
  if (route.endsWith('/messages')) {
    return { id: 'msg_1', type: 'message', role: 'assistant', model: 'mock', content: [{ type: 'text', text }], stop_reason: 'max_tokens', usage: { input_tokens: prompt, output_tokens: completion } };
  }
  if (route.endsWith('/responses')) {
    return { id, object: 'response', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, model: 'mock', output: [], usage: { input_tokens: prompt, output_tokens: completion, total_tokens: prompt + completion } };
  }
  return { id: 'c1', object: 'chat.completion', model: 'mock', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'length' }], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } };
}

function sseAnswer(route: string, { prompt, completion, id }: Usage, body: Body, text: string, how: MockUpstreamOptions['usage'] = undefined): string[] {
  const data = (value: unknown, event?: string): string => `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(value)}\n\n`;
  if (route.endsWith('/messages')) {
    // message_delta usage is cumulative: a trailing zero one says nothing new, yet a reader that keeps the last believes it.
    const trailing = how === 'trailing-zero' ? [data({ type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { input_tokens: 0, output_tokens: 0 } }, 'message_delta')] : [];
    return [
      data({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'mock', content: [], usage: { input_tokens: prompt, output_tokens: 1 } } }, 'message_start'),
      data({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
      data({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta'),
      data({ type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: how === 'negative' ? -completion : completion } }, 'message_delta'),
      ...trailing,
      data({ type: 'message_stop' }, 'message_stop'),
    ];
  }
  if (route.endsWith('/responses')) {
    return [
      data({ type: 'response.created', response: { id, model: 'mock', status: 'in_progress' } }, 'response.created'),
      data({ type: 'response.output_text.delta', delta: text }, 'response.output_text.delta'),
      data({ type: 'response.completed', response: { id, model: 'mock', status: 'completed', output: [], usage: { input_tokens: prompt, output_tokens: completion, total_tokens: prompt + completion } } }, 'response.completed'),
    ];
  }
  const withUsage = (body['stream_options'] as Body | undefined)?.['include_usage'] === true;
  return [
    data({ id: 'c1', object: 'chat.completion.chunk', model: 'mock', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }),
    data({ id: 'c1', object: 'chat.completion.chunk', model: 'mock', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }),
    data({ id: 'c1', object: 'chat.completion.chunk', model: 'mock', choices: [{ index: 0, delta: {}, finish_reason: 'length' }] }),
    ...(withUsage ? [data({ id: 'c1', object: 'chat.completion.chunk', model: 'mock', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } })] : []),
    ...(withUsage && how === 'trailing-zero' ? [data({ id: 'c1', object: 'chat.completion.chunk', model: 'mock', choices: [], usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } })] : []),
    'data: [DONE]\n\n',
  ];
}
