export { argsHash, canonicalJson } from './args-hash.js';
export { createTools } from './create-tools.js';
export { MAX_RESULT_BYTES } from './limits.js';
export { runToolCall, type ToolCallContext } from './run-tool-call.js';
export type { Tool, ToolInvocation, ToolResult } from './spec.js';
