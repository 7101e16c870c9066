import { ProviderError } from '../../core/provider-error.js';
import { describeBody, isRecord, readArray, readRecord, readString } from '../json-fields.js';
import type { GenerateResult, ToolCall } from '../spec.js';
import { mapResponsesFinishReason } from './map-responses-finish-reason.js';
import { mapResponsesUsage } from './map-responses-usage.js';

/**
 * A 200 body → GenerateResult with one choice. Text is the concatenation of every
 * `output_text` part of every message item; `function_call` items become tool calls.
 * A body without an `output` array is an `invalid_response`.
 */
export function parseResponse(body: unknown, status: number): Omit<GenerateResult, 'status'> {
  const output = readArray(body, 'output');
  if (output === undefined) {
    throw new ProviderError('invalid_response', `response body has no output (${describeBody(body)})`, { status });
  }
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const item of output) {
    const type = readString(item, 'type');
    if (type === 'message') {
      for (const part of readArray(item, 'content') ?? []) {
        const text = readString(part, 'text');
        if (readString(part, 'type') === 'output_text' && text !== undefined) texts.push(text);
      }
    } else if (type === 'function_call') {
      const name = readString(item, 'name');
      if (name === undefined) continue;
      const id = readString(item, 'call_id') ?? readString(item, 'id') ?? `call_${toolCalls.length}`;
      toolCalls.push({ id, name, arguments: readString(item, 'arguments') ?? '' });
    }
  }
  const finish = mapResponsesFinishReason(
    readString(body, 'status'),
    readString(readRecord(body, 'incomplete_details'), 'reason'),
    toolCalls.length > 0,
  );
  const responseModel = readString(body, 'model');
  return {
    choices: [{ text: texts.join(''), finishReason: finish, ...(toolCalls.length > 0 ? { toolCalls } : {}) }],
    usage: mapResponsesUsage(isRecord(body) ? body['usage'] : undefined),
    ...(responseModel === undefined ? {} : { responseModel }),
  };
}
