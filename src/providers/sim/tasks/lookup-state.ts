/**
 * What a simulated agent knows mid-loop, read back from the conversation alone (the sim is
 * stateless): every lookup it made so far, per item, with the result it got. And the tool
 * habits a skill asks for, read from the skill text as a model would pick up the gist.
 */
import type { ChatMessage } from '../../../core/messages.js';

export interface LookupAttempt {
  /** The arguments exactly as sent (JSON text); identical text = identical call. */
  args: string;
  ok: boolean;
  /** The number the tool returned, when it succeeded. */
  value: number | undefined;
}

export interface ToolHabits {
  /** "Double-check every lookup by repeating it": a second identical call after a success. */
  doubleCheck: boolean;
  /** "Retry a failed lookup": the identical call once more before changing anything. */
  retryFailed: boolean;
}

const DOUBLE_CHECK = [/\b(?:double[- ]check|re-?check|verify|confirm)\b[^.\n]*\blookups?\b/i, /\brepeat(?:ing)? (?:it|each lookup|every lookup|the lookup)\b/i];
const RETRY_FAILED = /\bretry\b[^.\n]*\bfail|\bfail[^.\n]*\bretry\b/i;

export function readToolHabits(skill: string): ToolHabits {
  return { doubleCheck: DOUBLE_CHECK.some((p) => p.test(skill)), retryFailed: RETRY_FAILED.test(skill) };
}

/** Digits of an item id (`K-4821` → `4821`): how a sloppy argument is matched to its item. */
export function itemDigits(text: string): string {
  return text.replace(/\D+/g, '');
}

/**
 * Attempts per item, in call order. A call is matched to its item by the digits of its
 * first string argument; a result is matched to its call by id. A call with no result yet
 * counts as failed (the executor always answers, so this is only a malformed history).
 */
export function readAttempts(conversation: readonly ChatMessage[], tool: string, items: readonly string[]): Map<string, LookupAttempt[]> {
  const results = new Map<string, ChatMessage>();
  for (const m of conversation) if (m.role === 'tool' && m.toolCallId !== undefined) results.set(m.toolCallId, m);
  const byDigits = new Map(items.map((item) => [itemDigits(item), item]));
  const attempts = new Map<string, LookupAttempt[]>(items.map((item) => [item, []]));
  for (const m of conversation) {
    for (const call of m.role === 'assistant' ? m.toolCalls ?? [] : []) {
      if (call.name !== tool) continue;
      const item = byDigits.get(itemDigits(firstString(call.arguments)));
      if (item === undefined) continue;
      const result = results.get(call.id);
      const value = result === undefined || failed(result) ? undefined : resultNumber(result.content, item);
      attempts.get(item)?.push({ args: call.arguments, ok: value !== undefined, value });
    }
  }
  return attempts;
}

function failed(result: ChatMessage): boolean {
  return result.isError === true || /^\s*(?:error\b|\{\s*"error")/i.test(result.content);
}

function firstString(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (parsed !== null && typeof parsed === 'object') {
      const value = Object.values(parsed).find((v): v is string => typeof v === 'string');
      return value ?? '';
    }
  } catch {
    // not JSON: read the digits of the raw text
  }
  return args;
}

/** The number a lookup returned: a JSON object's first numeric field, else the first number in the text that is not the id. */
function resultNumber(content: string, item: string): number | undefined {
  try {
    const parsed: unknown = JSON.parse(content);
    if (typeof parsed === 'number') return parsed;
    if (parsed !== null && typeof parsed === 'object') {
      const value = Object.values(parsed).find((v): v is number => typeof v === 'number' && Number.isFinite(v));
      if (value !== undefined) return value;
    }
  } catch {
    // plain text result
  }
  const number = content.replace(item, ' ').match(/-?\d+(?:\.\d+)?/)?.[0];
  return number === undefined ? undefined : Number(number);
}
