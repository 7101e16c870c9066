import { ProviderError } from '../../core/provider-error.js';
import { describeBody, isRecord, readArray, readString } from '../json-fields.js';
import type { GenerateResult, ToolCall } from '../spec.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';
import { mapAnthropicUsage } from './map-anthropic-usage.js';

/**
 * A 200 body → GenerateResult with one choice. Text is the concatenation of the `text`
 * blocks (thinking blocks are not the answer); `tool_use` blocks become tool calls with their
 * input re-serialized as a JSON string, the shape OpenAI uses. A body without a `content`
 * array is an `invalid_response`.
 */
export function parseAnthropicMessage(body: unknown, status: number): Omit<GenerateResult, 'status'> {
  const content = readArray(body, 'content');
  if (content === undefined) {
    throw new ProviderError('invalid_response', `response body has no content (${describeBody(body)})`, { status });
  }
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of content) {
    const type = readString(block, 'type');
    const text = readString(block, 'text');
    if (type === 'text' && text !== undefined) texts.push(text);
    if (type === 'tool_use') {
      const name = readString(block, 'name');
      if (name === undefined) continue;
      const input = isRecord(block) ? block['input'] : undefined;
      toolCalls.push({
        id: readString(block, 'id') ?? `toolu_${toolCalls.length}`,
        name,
        arguments: JSON.stringify(input ?? {}),
      });
    }
  }
  const responseModel = readString(body, 'model');
  return {
    choices: [
      {
        text: texts.join(''),
        finishReason: mapAnthropicFinishReason(readString(body, 'stop_reason')),
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
      },
    ],
    usage: mapAnthropicUsage(isRecord(body) ? body['usage'] : undefined),
    ...(responseModel === undefined ? {} : { responseModel }),
  };
}
