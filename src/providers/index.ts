export type {
  GenerateChoice,
  GenerateRequest,
  GenerateResult,
  Protocol,
  Provider,
  ToolCall,
  ToolDefinition,
} from './spec.js';
export {
  createProvider,
  DEFAULT_SIM_SEED,
  LOOPBACK_PLACEHOLDER_KEY,
  type CreateProviderConfig,
  type CreateProviderOptions,
} from './create-provider.js';
export { createOpenAIChatProvider, isNativeNRejected, NATIVE_N_REJECTED_PREFIX, type OpenAIChatProviderOptions } from './openai-chat/index.js';
export { createOpenAIResponsesProvider, type OpenAIResponsesProviderOptions } from './openai-responses/index.js';
export { createAnthropicMessagesProvider, type AnthropicMessagesProviderOptions } from './anthropic-messages/index.js';
export { toProviderError, type AttemptOutcome } from './http-errors.js';
export { isLoopbackUrl } from './loopback.js';
export { scrubSecret } from './scrub-secret.js';
export { createSimProvider, startSimServer, type SimProviderOptions, type SimServer, type SimServerOptions } from './sim/index.js';
