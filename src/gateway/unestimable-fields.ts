/**
 * Request features that bill tokens the gateway cannot bound from the body, pure: audio in or
 * out, files and PDFs (billed per page, text and image), hosted tools that feed search results
 * or tool output back in as input (web search, file search, code execution, remote MCP),
 * stored prompts and conversations, predicted outputs. A budgeted key refuses them (403,
 * naming the field): reserving for them would be a guess, and a guess below the bill breaks
 * the budget. Images and `previous_response_id` are the prompt estimator's to estimate.
 */
import type { GenerationProtocol } from './routes.js';

type Body = Record<string, unknown>;

/** Hosted tools of the Responses API: they run upstream and bill what they read. */
const RESPONSES_HOSTED_TOOLS = /^(?:web_search|web_search_preview|file_search|code_interpreter|image_generation|mcp)(?:_|$)/;
/** Anthropic server tools (versioned types): run upstream, results billed as input. */
const ANTHROPIC_SERVER_TOOLS = /^(?:web_search|web_fetch|code_execution)_\d{8}$/;
/** Content parts that carry audio or files. */
const FILE_PARTS = new Set(['input_audio', 'file', 'input_file', 'container_upload']);

/** Why a budgeted key cannot send this body, naming the field; undefined when it can. */
export function unestimableField(protocol: GenerationProtocol, body: Body): string | undefined {
  if (protocol === 'openai-chat') {
    if (body['audio'] !== undefined && body['audio'] !== null) return "'audio' (audio output is billed as audio tokens the gateway cannot bound)";
    if (Array.isArray(body['modalities']) && body['modalities'].includes('audio')) return "'modalities': [\"audio\"] (audio output)";
    if (body['prediction'] !== undefined && body['prediction'] !== null) return "'prediction' (rejected predicted tokens are billed beyond the answer)";
  }
  if (protocol === 'openai-responses') {
    for (const field of ['conversation', 'prompt'] as const) {
      if (body[field] !== undefined && body[field] !== null) return `'${field}' (stored ${field === 'prompt' ? 'prompt templates' : 'conversations'} add input the gateway cannot see)`;
    }
  }
  if (protocol === 'anthropic-messages' && Array.isArray(body['mcp_servers']) && body['mcp_servers'].length > 0) return "'mcp_servers' (remote MCP tool results are billed as input)";
  const tool = hostedTool(protocol, body['tools']);
  if (tool !== undefined) return `the hosted tool '${tool}' in 'tools' (it runs upstream and bills what it reads)`;
  return fileContent([body['messages'], body['input']]);
}

function hostedTool(protocol: GenerationProtocol, tools: unknown): string | undefined {
  if (!Array.isArray(tools)) return undefined;
  for (const tool of tools) {
    const type = typeof tool === 'object' && tool !== null ? (tool as Body)['type'] : undefined;
    if (typeof type !== 'string') continue;
    if (protocol === 'anthropic-messages' ? ANTHROPIC_SERVER_TOOLS.test(type) : RESPONSES_HOSTED_TOOLS.test(type)) return type;
  }
  return undefined;
}

/** The first audio/file part, or an Anthropic document that is not plain text, anywhere in the messages. */
function fileContent(value: unknown): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (Array.isArray(item)) {
      for (const element of item) if (typeof element === 'object' && element !== null) stack.push(element);
      continue;
    }
    if (typeof item !== 'object' || item === null) continue;
    const part = item as Body;
    const type = part['type'];
    if (typeof type === 'string' && FILE_PARTS.has(type)) return `a '${type}' content part (audio and files are billed by content the gateway cannot count)`;
    if (type === 'document' && !isTextDocument(part['source'])) return "a 'document' block that is not plain text (PDFs and files are billed per page as text and image)";
    // Only content can nest content: tool results and message content arrays.
    for (const field of ['content', 'input']) {
      const inner = part[field];
      if (Array.isArray(inner)) stack.push(inner);
    }
  }
  return undefined;
}

function isTextDocument(source: unknown): boolean {
  const type = typeof source === 'object' && source !== null ? (source as Body)['type'] : undefined;
  return type === 'text' || type === 'content';
}
