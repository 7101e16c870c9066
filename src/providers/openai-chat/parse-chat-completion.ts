import { ProviderError } from '../../core/provider-error.js';
import { describeBody, isRecord, readArray, readNumber, readRecord, readString } from '../json-fields.js';
import type { GenerateChoice, GenerateResult, ToolCall } from '../spec.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
import { mapOpenAIUsage } from './map-openai-usage.js';

/**
 * A 200 body → GenerateResult. The body is read as `unknown`: a proxy can answer 200 with an
 * HTML page or a JSON error object, and that must be an `invalid_response` (retryable), not a
 * crash or an empty answer scored as a failure of the model.
 */
export function parseChatCompletion(body: unknown, status: number): Omit<GenerateResult, 'status'> {
  const rawChoices = readArray(body, 'choices');
  if (rawChoices === undefined || rawChoices.length === 0) {
    throw new ProviderError('invalid_response', `response body has no choices (${describeBody(body)})`, { status });
  }
  const choices = rawChoices
    .map((choice, position) => ({ choice, index: readNumber(choice, 'index') ?? position }))
    .sort((a, b) => a.index - b.index)
    .map(({ choice }) => parseChoice(choice));
  const responseModel = readString(body, 'model');
  return {
    choices,
    usage: mapOpenAIUsage(isRecord(body) ? body['usage'] : undefined),
    ...(responseModel === undefined ? {} : { responseModel }),
  };
}

function parseChoice(choice: unknown): GenerateChoice {
  const message = readRecord(choice, 'message');
  const finish = mapOpenAIFinishReason(readString(choice, 'finish_reason'));
  const toolCalls = parseToolCalls(message);
  return {
    text: readString(message, 'content') ?? '',
    finishReason: finish,
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
  };
}

function parseToolCalls(message: Record<string, unknown> | undefined): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const call of readArray(message, 'tool_calls') ?? []) {
    const fn = readRecord(call, 'function');
    const name = readString(fn, 'name');
    if (name === undefined) continue;
    calls.push({ id: readString(call, 'id') ?? `call_${calls.length}`, name, arguments: readString(fn, 'arguments') ?? '' });
  }
  // The deprecated single `function_call` still comes back from older upstreams.
  const legacy = readRecord(message, 'function_call');
  const legacyName = readString(legacy, 'name');
  if (legacyName !== undefined) {
    calls.push({ id: 'function_call', name: legacyName, arguments: readString(legacy, 'arguments') ?? '' });
  }
  return calls;
}
