/**
 * Usage from a stream, event by event, as the events pass through to the client:
 * - Anthropic: `message_start` carries the input usage, `message_delta` the final output
 *   count (cumulative); without a `message_delta` the output is unknown, not the
 *   placeholder `message_start` sent.
 * - OpenAI chat: the final chunk carries `usage` (asked for with include_usage).
 * - Responses: `response.completed` / `.incomplete` / `.failed` carry the whole response.
 * Only events that can carry usage are parsed (each observer's `marker`), so long streams cost little.
 * Usage fields in a stream are cumulative: each keeps the largest value any event gave, and an
 * impossible count (negative, fractional) makes the stream's usage unknown (usage-sanity.ts).
 */
import { makeUsage, UNKNOWN_USAGE } from '../../core/usage.js';
import { mapAnthropicFinishReason } from '../../providers/anthropic-messages/map-anthropic-finish-reason.js';
import { mapAnthropicUsage } from '../../providers/anthropic-messages/map-anthropic-usage.js';
import { isRecord, readArray, readRecord, readString } from '../../providers/json-fields.js';
import { mapOpenAIUsage } from '../../providers/openai-chat/map-openai-usage.js';
import { mapResponsesUsage } from '../../providers/openai-responses/map-responses-usage.js';
import type { GenerationProtocol } from '../routes.js';
import { chatFinish, responsesFinish } from './body-observer.js';
import { emptyObservation, errorMessageOf, parseJsonSafe, type CallObservation } from './observation.js';
import type { StreamEvent } from './sse-decoder.js';
import { mergeCumulativeUsage, saneUsage } from './usage-sanity.js';

export interface StreamObserver {
  /** Matches the text of every event that can matter (global regex), so the rest are never parsed. */
  marker: RegExp;
  /**
   * Strings one of which every match of `marker` contains: stream bytes holding none of them
   * are never decoded. Each is a scan of every chunk, so fewer is better; undefined when nearly
   * every event would hold one anyway (then decoding the chunk once is cheaper).
   */
  literals: readonly string[] | undefined;
  onEvent(event: StreamEvent): void;
  result(): CallObservation;
}

export function createStreamObserver(protocol: GenerationProtocol): StreamObserver {
  if (protocol === 'anthropic-messages') return anthropicObserver();
  if (protocol === 'openai-chat') return chatObserver();
  return responsesObserver();
}

function anthropicObserver(): StreamObserver {
  const observation = emptyObservation();
  const usage: Record<string, unknown> = {};
  let final = false;
  let sane = true;
  const merge = (fields: unknown): void => {
    if (isRecord(fields) && !mergeCumulativeUsage(usage, fields)) sane = false;
  };
  return {
    marker: /"type"\s*:\s*"(?:message_start|message_delta|error)"/g,
    // `"message_` covers message_start and message_delta (and message_stop, parsed for nothing) in one scan.
    literals: ['"message_', '"error"'],
    onEvent({ event, data }) {
      if (event !== undefined && event !== 'message_start' && event !== 'message_delta' && event !== 'error') return;
      const payload = parseJsonSafe(data);
      const type = readString(payload, 'type') ?? event;
      if (type === 'message_start') {
        const message = readRecord(payload, 'message');
        observation.model = readString(message, 'model');
        merge(readRecord(message, 'usage'));
      } else if (type === 'message_delta') {
        // message_delta usage is cumulative: it raises what message_start said (never lowers it).
        const delta = readRecord(payload, 'usage');
        if (delta) {
          merge(delta);
          final = true;
        }
        observation.finish = mapAnthropicFinishReason(readString(readRecord(payload, 'delta'), 'stop_reason'));
      } else if (type === 'error') {
        observation.error = errorMessageOf(payload) ?? 'error event in stream';
      }
    },
    result() {
      if (!sane) return { ...observation, usage: { ...UNKNOWN_USAGE } };
      const raw = Object.keys(usage).length === 0 ? undefined : usage;
      const mapped = saneUsage(raw, mapAnthropicUsage(raw));
      return { ...observation, usage: final ? mapped : makeUsage({ ...mapped, outputTokens: undefined, totalTokens: undefined }) };
    },
  };
}

function chatObserver(): StreamObserver {
  const observation = emptyObservation();
  const finishes: unknown[] = [];
  let usage: Record<string, unknown> | undefined;
  let sane = true;
  return {
    // Usage comes in one final chunk; finish_reason is null until the choice ends.
    marker: /"usage"\s*:\s*\{|"finish_reason"\s*:\s*"|"error"\s*:/g,
    // Every chunk says `"finish_reason": null` until the end: a byte gate would open for each one.
    literals: undefined,
    onEvent({ data }) {
      if (data === '[DONE]') return;
      const chunk = parseJsonSafe(data);
      observation.model ??= readString(chunk, 'model');
      const reported = readRecord(chunk, 'usage');
      if (reported && !mergeCumulativeUsage((usage ??= {}), reported)) sane = false;
      for (const choice of readArray(chunk, 'choices') ?? []) if (readString(choice, 'finish_reason') !== undefined) finishes.push(choice);
      observation.error ??= errorMessageOf(chunk);
    },
    result() {
      const seen = sane && usage !== undefined ? saneUsage(usage, mapOpenAIUsage(usage)) : { ...UNKNOWN_USAGE };
      return { ...observation, usage: seen, finish: chatFinish(finishes) };
    },
  };
}

const RESPONSES_FINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

function responsesObserver(): StreamObserver {
  const observation = emptyObservation();
  const usage: Record<string, unknown> = {};
  let final = false;
  let sane = true;
  return {
    marker: /"type"\s*:\s*"(?:response\.(?:completed|incomplete|failed|created)|error)"/g,
    literals: ['"response.completed"', '"response.incomplete"', '"response.failed"', '"response.created"', '"error"'],
    onEvent({ event, data }) {
      if (event !== undefined && !RESPONSES_FINAL.has(event) && event !== 'response.created' && event !== 'error') return;
      const payload = parseJsonSafe(data);
      const type = readString(payload, 'type') ?? event ?? '';
      const response = readRecord(payload, 'response');
      if (type === 'response.created') {
        observation.model = readString(response, 'model');
        observation.responseId = readString(response, 'id');
      } else if (RESPONSES_FINAL.has(type)) {
        observation.responseId = readString(response, 'id') ?? observation.responseId;
        observation.model = readString(response, 'model') ?? observation.model;
        // Each final event carries the whole usage; a second one (buggy upstream) cannot lower the first.
        if (!mergeCumulativeUsage(usage, readRecord(response, 'usage'))) sane = false;
        final = true;
        observation.finish = responsesFinish(response);
        if (type === 'response.failed') observation.error = readString(readRecord(response, 'error'), 'message') ?? 'response failed';
      } else if (type === 'error') {
        observation.error = readString(payload, 'message') ?? errorMessageOf(payload) ?? 'error event in stream';
      }
    },
    result() {
      const seen = sane && final && Object.keys(usage).length > 0 ? saneUsage(usage, mapResponsesUsage(usage)) : { ...UNKNOWN_USAGE };
      return { ...observation, usage: seen };
    },
  };
}
