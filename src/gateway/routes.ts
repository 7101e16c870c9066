/**
 * The endpoints the gateway serves. Each names the wire protocol it speaks (for usage
 * parsing and clamping) and the protocol family whose error shape its failures take.
 */
export type RouteKind = 'anthropic-messages' | 'anthropic-count-tokens' | 'openai-chat' | 'openai-responses' | 'models';
export type Family = 'anthropic' | 'openai';
export type GenerationProtocol = 'anthropic-messages' | 'openai-chat' | 'openai-responses';

export interface GatewayRoute {
  kind: RouteKind;
  method: 'GET' | 'POST';
  /** Model calls: budgeted, clamped and recorded. Metadata routes are only proxied. */
  protocol: GenerationProtocol | undefined;
}

const ROUTES: Readonly<Record<string, GatewayRoute>> = {
  '/v1/messages': { kind: 'anthropic-messages', method: 'POST', protocol: 'anthropic-messages' },
  '/v1/messages/count_tokens': { kind: 'anthropic-count-tokens', method: 'POST', protocol: undefined },
  '/v1/chat/completions': { kind: 'openai-chat', method: 'POST', protocol: 'openai-chat' },
  '/v1/responses': { kind: 'openai-responses', method: 'POST', protocol: 'openai-responses' },
  '/v1/models': { kind: 'models', method: 'GET', protocol: undefined },
};

/** `pathname` without its query; one trailing slash is tolerated. */
export function findRoute(pathname: string): GatewayRoute | undefined {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  return ROUTES[path];
}

/**
 * Whose error shape a reply takes: Anthropic for `/v1/messages…`, and for `/v1/models` when
 * the caller speaks Anthropic (it sends `anthropic-version`); OpenAI otherwise.
 */
export function familyOf(pathname: string, headers: Record<string, string | string[] | undefined>): Family {
  if (pathname.startsWith('/v1/messages')) return 'anthropic';
  if (pathname.startsWith('/v1/models') && headers['anthropic-version'] !== undefined) return 'anthropic';
  return 'openai';
}
