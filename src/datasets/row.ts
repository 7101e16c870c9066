/** One parsed JSONL value → an `EvalCase`, or every problem with that row (file:line + key). */
import type { EvalCase } from '../core/case.js';
import { IsobudgetError } from '../core/errors.js';
import type { ChatMessage } from '../core/messages.js';
import { describeValue } from '../config/key-path.js';

export interface RowContext {
  file: string;
  line: number;
  /** A judge will grade: rows need no `expected`/`reference`. */
  judged: boolean;
  /** `datasets.fields`: the file's own name of a key, shown in errors (`question` for `input`). */
  names?: Readonly<Record<string, string>>;
}

const KNOWN = new Set(['id', 'input', 'messages', 'expected', 'reference', 'category', 'tags', 'cluster', 'metadata']);
const ROLES = ['system', 'user', 'assistant'] as const;
const EXAMPLE = '{"id": "c1", "input": "…", "expected": "…"}';

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function parseRow(value: unknown, context: RowContext): { evalCase: EvalCase | undefined; errors: IsobudgetError[] } {
  const errors: IsobudgetError[] = [];
  const report = (code: string, key: string | undefined, message: string, hint: string): void => {
    errors.push(new IsobudgetError(code, message, { location: { file: context.file, line: context.line, ...(key === undefined ? {} : { key }) }, hint }));
  };
  if (!isRecord(value)) {
    report('dataset_row_not_object', undefined, `row is ${describeValue(value)}, not a JSON object`, `write one object per line, e.g. ${EXAMPLE}`);
    return { evalCase: undefined, errors };
  }
  const shown = (key: string): string => context.names?.[key] ?? key;
  const optionalString = (key: string): string | undefined => {
    const v = value[key];
    if (v === undefined || typeof v === 'string') return v;
    report('dataset_invalid_type', shown(key), `\`${shown(key)}\` must be a string, got ${describeValue(v)}`, `quote it: "${shown(key)}": "…"`);
    return undefined;
  };

  let id: string | undefined;
  const rawId = value['id'];
  if (rawId === undefined || rawId === null) report('dataset_missing_id', 'id', 'missing required key `id`', 'give every row a unique "id" (a string or a number); a file where no row has one gets ids from a hash of the input');
  else if (typeof rawId === 'number' && Number.isFinite(rawId)) id = String(rawId);
  else if (typeof rawId === 'string' && rawId.trim() !== '') id = rawId;
  else report('dataset_invalid_type', shown('id'), `\`${shown('id')}\` must be a non-empty string or a number, got ${describeValue(rawId)}`, 'give every row a unique "id" (a string or a number)');

  let input: string | undefined;
  let messages: ChatMessage[] | undefined;
  if (value['input'] !== undefined && value['messages'] !== undefined) {
    report('dataset_input_conflict', 'messages', 'give either `input` or `messages`, not both', 'use `input` for one user turn, `messages` for a conversation');
  } else if (value['messages'] !== undefined) {
    messages = parseMessages(value['messages'], report);
    input = messages ? [...messages].reverse().find((m) => m.role === 'user')?.content : undefined;
    if (messages && input === undefined) report('dataset_no_user_message', 'messages', '`messages` has no user message', 'add {"role": "user", "content": "…"}');
  } else if (value['input'] !== undefined) {
    input = optionalString('input');
  } else {
    report('dataset_missing_input', 'input', 'missing `input` (or `messages`)', `add the prompt, e.g. ${EXAMPLE}, or set datasets.fields.input to the key that holds it`);
  }

  const reference = optionalString('reference');
  if (!context.judged && !('expected' in value) && value['reference'] === undefined) {
    report('dataset_missing_expected', 'expected', 'missing `expected` (or `reference`)', 'add "expected": <answer>, set datasets.fields.expected to the key that holds it, or load the dataset as judge-graded');
  }
  const category = optionalString('category');
  // A cluster is often a document or template number: numbers are keys too.
  const cluster = typeof value['cluster'] === 'number' && Number.isFinite(value['cluster']) ? String(value['cluster']) : optionalString('cluster');
  const tags: string[] = [];
  const rawTags = value['tags'];
  if (Array.isArray(rawTags)) {
    rawTags.forEach((tag, index) => {
      if (typeof tag === 'string') tags.push(tag);
      else report('dataset_invalid_type', `tags[${index}]`, `\`tags[${index}]\` must be a string, got ${describeValue(tag)}`, 'write tags as a list of strings: "tags": ["a", "b"]');
    });
  } else if (rawTags !== undefined) {
    report('dataset_invalid_type', 'tags', `\`tags\` must be a list of strings, got ${describeValue(rawTags)}`, 'write tags as a list of strings: "tags": ["a", "b"]');
  }

  const metadata: Record<string, unknown> = isRecord(value['metadata']) ? { ...value['metadata'] } : {};
  for (const [key, v] of Object.entries(value)) {
    if (!KNOWN.has(key) || (key === 'metadata' && !isRecord(v))) metadata[key] = v;
  }
  if (errors.length > 0 || id === undefined || input === undefined) return { evalCase: undefined, errors };
  return {
    evalCase: {
      id, input, messages,
      expected: 'expected' in value ? value['expected'] : reference,
      reference, category, tags, cluster, metadata,
      source: { file: context.file, line: context.line },
    },
    errors,
  };
}

type Report = (code: string, key: string | undefined, message: string, hint: string) => void;

function parseMessages(raw: unknown, report: Report): ChatMessage[] | undefined {
  const hint = 'write "messages": [{"role": "user", "content": "…"}] with roles system, user or assistant';
  if (!Array.isArray(raw) || raw.length === 0) {
    report('dataset_invalid_type', 'messages', `\`messages\` must be a non-empty list, got ${describeValue(raw)}`, hint);
    return undefined;
  }
  const messages: ChatMessage[] = [];
  let ok = true;
  raw.forEach((item: unknown, index) => {
    const key = `messages[${index}]`;
    if (!isRecord(item)) {
      report('dataset_invalid_type', key, `\`${key}\` must be an object, got ${describeValue(item)}`, hint);
      ok = false;
      return;
    }
    const role = item['role'];
    const content = item['content'];
    const validRole = ROLES.find((r) => r === role);
    if (validRole === undefined) {
      report('dataset_invalid_role', `${key}.role`, `\`${key}.role\` must be one of system, user, assistant, got ${role === undefined ? 'nothing' : describeValue(role)}`, hint);
      ok = false;
    }
    if (typeof content !== 'string') {
      report('dataset_invalid_type', `${key}.content`, `\`${key}.content\` must be a string, got ${content === undefined ? 'nothing' : describeValue(content)}`, hint);
      ok = false;
    }
    if (validRole !== undefined && typeof content === 'string') messages.push({ role: validRole, content });
  });
  return ok ? messages : undefined;
}
