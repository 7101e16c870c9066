/** Usage, finish reason and model from a complete (non-streamed) JSON reply. */
import { mapAnthropicFinishReason } from '../../providers/anthropic-messages/map-anthropic-finish-reason.js';
import { mapAnthropicUsage } from '../../providers/anthropic-messages/map-anthropic-usage.js';
import { readArray, readRecord, readString } from '../../providers/json-fields.js';
import { mapOpenAIFinishReason } from '../../providers/openai-chat/map-openai-finish-reason.js';
import { mapOpenAIUsage } from '../../providers/openai-chat/map-openai-usage.js';
import { mapResponsesFinishReason } from '../../providers/openai-responses/map-responses-finish-reason.js';
import { mapResponsesUsage } from '../../providers/openai-responses/map-responses-usage.js';
import type { GenerationProtocol } from '../routes.js';
import { emptyObservation, errorMessageOf, parseJsonSafe, type CallObservation } from './observation.js';
import { saneUsage } from './usage-sanity.js';

export function observeJsonBody(protocol: GenerationProtocol, text: string): CallObservation {
  const body = parseJsonSafe(text);
  const observation = emptyObservation();
  if (body === undefined) return { ...observation, error: 'upstream body is not JSON' };
  observation.model = readString(body, 'model');
  observation.error = errorMessageOf(body);
  switch (protocol) {
    case 'anthropic-messages':
      observation.usage = saneUsage(readRecord(body, 'usage'), mapAnthropicUsage(readRecord(body, 'usage')));
      observation.finish = mapAnthropicFinishReason(readString(body, 'stop_reason'));
      break;
    case 'openai-chat':
      observation.usage = saneUsage(readRecord(body, 'usage'), mapOpenAIUsage(readRecord(body, 'usage')));
      observation.finish = chatFinish(readArray(body, 'choices') ?? []);
      break;
    case 'openai-responses':
      observation.usage = saneUsage(readRecord(body, 'usage'), mapResponsesUsage(readRecord(body, 'usage')));
      observation.finish = responsesFinish(body);
      observation.responseId = readString(body, 'id');
      break;
  }
  return observation;
}

/** One reason for the call: the first choice's; with native n, `length` if any choice hit it. */
export function chatFinish(choices: unknown[]): CallObservation['finish'] {
  const raws = choices.map((choice) => readString(choice, 'finish_reason')).filter((raw): raw is string => raw !== undefined);
  if (raws.length === 0) return undefined;
  return mapOpenAIFinishReason(raws.includes('length') ? 'length' : raws[0]);
}

export function responsesFinish(response: unknown): CallObservation['finish'] {
  const output = readArray(response, 'output') ?? [];
  const calls = output.some((item) => readString(item, 'type') === 'function_call');
  return mapResponsesFinishReason(readString(response, 'status'), readString(readRecord(response, 'incomplete_details'), 'reason'), calls);
}
