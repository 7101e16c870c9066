export { createAnthropicMessagesProvider, type AnthropicMessagesProviderOptions } from './anthropic-messages-provider.js';
export { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';
export { mapAnthropicUsage } from './map-anthropic-usage.js';
