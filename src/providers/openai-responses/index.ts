export { createOpenAIResponsesProvider, type OpenAIResponsesProviderOptions } from './openai-responses-provider.js';
export { mapResponsesFinishReason } from './map-responses-finish-reason.js';
export { mapResponsesUsage } from './map-responses-usage.js';
