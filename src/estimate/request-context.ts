/**
 * A run's model call as the shared estimator sees it, pure: its body shape (the bucket its
 * ratio is learned in) and the published overhead its text count does not hold. A run's count
 * (core/tokens.ts countPromptTokens) already holds the per-message framing and the tool
 * definitions; what it lacks is Anthropic's tool-use system prompt, billed by Claude models
 * whenever tools are offered. (A run names its model and protocol in its config, unlike a
 * gateway client: a model we cannot name is reserved by the seed ratio and what its own calls
 * teach, not at the largest Claude prompt, which would halve an agent's budget on every turn.)
 */
import type { ChatMessage } from '../core/messages.js';
import { bodyShape } from './body-shape.js';
import { modelFamily } from './model-family.js';
import type { EstimateContext } from './prompt-estimator.js';
import { toolPromptTokens } from './published-overheads.js';

export interface RunRequest {
  model: string;
  messages: readonly ChatMessage[];
  tools?: readonly unknown[] | undefined;
}

export function runRequestContext(protocol: string, request: RunRequest): EstimateContext {
  const tools = request.tools?.length ?? 0;
  const family = modelFamily(request.model);
  const overhead = tools > 0 && family === 'claude' ? toolPromptTokens(family, request.model, false) : 0;
  const parts = request.messages.map((message) => message.content);
  return {
    shape: bodyShape({ protocol, parts, messages: request.messages.length, tools, images: 0 }),
    overhead,
    overheadFloor: overhead,
  };
}
