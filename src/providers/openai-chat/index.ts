export { createOpenAIChatProvider, type OpenAIChatProviderOptions } from './openai-chat-provider.js';
export { isNativeNRejected, NATIVE_N_REJECTED_PREFIX } from './native-n-rejected.js';
export { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
export { mapOpenAIUsage } from './map-openai-usage.js';
