/**
 * Request features that bill tokens the gateway cannot bound from the body, pure: audio in or
 * out, files and PDFs (billed per page, text and image), hosted tools that feed search results
 * or tool output back in as input (web search, file search, code execution, remote MCP),
 * stored prompts and conversations and references to stored items, predicted outputs, web
 * search switched on by a model suffix (OpenRouter `:online`), a plugin or
 * `web_search_options`. A budgeted key refuses them (a protocol-shaped 400 `unestimable_field`,
 * naming the field): reserving for them would be a guess, and a guess below the bill breaks
 * the budget. Images and `previous_response_id` are the prompt estimator's to estimate.
 */
import type { BodyWalk } from './body-walk.js';
import type { GenerationProtocol } from './routes.js';

type Body = Record<string, unknown>;

/** Hosted tools of the Responses API: they run upstream and bill what they read. */
const RESPONSES_HOSTED_TOOLS = /^(?:web_search|web_search_preview|file_search|code_interpreter|image_generation|mcp)(?:_|$)/;
/** Anthropic server tools (versioned types): run upstream, results billed as input. */
const ANTHROPIC_SERVER_TOOLS = /^(?:web_search|web_fetch|code_execution)_\d{8}$/;
/** OpenRouter plugins that fetch content upstream and bill it as input (`web`: search results). */
const SEARCH_PLUGINS = new Set(['web']);

/**
 * Why a budgeted key cannot send this body, naming the field; undefined when it can.
 * `walk`: the body's walk (body-walk.ts), which found the first part no bound is known for.
 */
export function unestimableField(protocol: GenerationProtocol, body: Body, walk: BodyWalk): string | undefined {
  const search = webSearch(body);
  if (search !== undefined) return search;
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
  return walk.unestimable;
}

/**
 * Web search switched on outside `tools`, in any protocol (OpenRouter, and OpenAI chat's
 * search models): the results are fed back in as input of a size no body shows.
 */
function webSearch(body: Body): string | undefined {
  if (body['web_search_options'] !== undefined && body['web_search_options'] !== null) return "'web_search_options' (search results are billed as input the gateway cannot bound)";
  const models = [body['model'], ...(Array.isArray(body['models']) ? body['models'] : [])];
  const online = models.find((model) => typeof model === 'string' && model.endsWith(':online'));
  if (online !== undefined) return `the model ${JSON.stringify(online)} (':online' adds web search results, billed as input the gateway cannot bound)`;
  if (Array.isArray(body['plugins'])) {
    for (const plugin of body['plugins']) {
      const id = typeof plugin === 'object' && plugin !== null ? (plugin as Body)['id'] : undefined;
      if (typeof id === 'string' && SEARCH_PLUGINS.has(id)) return `the plugin '${id}' in 'plugins' (search results are billed as input the gateway cannot bound)`;
    }
  }
  return undefined;
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
