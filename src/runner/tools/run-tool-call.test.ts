import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ToolConfig } from '../../config/types.js';
import type { ToolStep } from '../../ledger/records.js';
import { createTools } from './create-tools.js';
import { MAX_RESULT_BYTES } from './limits.js';
import { runToolCall } from './run-tool-call.js';

const dir = mkdtempSync(join(tmpdir(), 'isobudget-tools-'));
const modulePath = join(dir, 'tools.mjs');
writeFileSync(
  modulePath,
  [
    'export function echo(args, context) { return { args, caseId: context.caseId, tool: context.tool }; }',
    "export function text() { return 'plain text'; }",
    "export function big() { return 'x'.repeat(200000); }",
    'export function bigint() { return { n: 1n }; }',
    "export async function fail() { throw new Error('boom'); }",
    'export function slow(args, { signal }) { return new Promise((resolve, reject) => signal.addEventListener("abort", () => reject(new Error("stopped")))); }',
    "export default function () { return 'from default'; }",
  ].join('\n'),
);

const tool = (name: string, source: ToolConfig['source']): ToolConfig => ({ name, description: '', parameters: { type: 'object' }, source });
const mod = (name: string, exportName = name) => tool(name, { kind: 'module', module: modulePath, export: exportName });
const tools = createTools([mod('echo'), mod('text'), mod('big'), mod('bigint'), mod('fail'), mod('slow'), mod('fallback'), mod('missing', 'nope'), tool('cmd', { kind: 'command', argv: [process.execPath, '-e', 'process.stdout.write(process.argv.at(-1) + "\\n")'] })]);
const context = { tools, timeoutMs: 200, caseId: 'case-7', signal: new AbortController().signal };
const call = (name: string, args = '{}', id = 'c1') => runToolCall({ id, name, arguments: args }, 2, [], context);

describe('runToolCall', () => {
  test('a module export gets the parsed arguments and the case id; objects go back as JSON', async () => {
    const { step, message } = await call('echo', '{"item":"K-1"}');
    expect(message).toEqual({ role: 'tool', toolCallId: 'c1', content: '{"args":{"item":"K-1"},"caseId":"case-7","tool":"echo"}' });
    expect(step).toMatchObject({ turn: 2, tool: 'echo', result_bytes: message.content.length, error: undefined, retry: false });
    expect(step.args_hash).toMatch(/^[0-9a-f]{16}$/);
  });

  test('strings go back as they are; the default export stands in when no export has the tool name', async () => {
    expect((await call('text')).message.content).toBe('plain text');
    expect((await call('fallback')).message.content).toBe('from default');
  });

  test('a command gets the arguments JSON as its last argument and its stdout is the result', async () => {
    // Node's own start-up can take longer than the 200 ms the other cases use on a busy machine.
    const result = await runToolCall({ id: 'c1', name: 'cmd', arguments: '{"item":"K-9"}' }, 1, [], { ...context, timeoutMs: 10_000 });
    expect(result.message.content).toBe('{"item":"K-9"}');
  });

  test.each([
    { name: 'fail', args: '{}', error: 'threw: boom' },
    { name: 'slow', args: '{}', error: 'timed out after 200 ms' },
    { name: 'bigint', args: '{}', error: 'returned a value that is not JSON: Do not know how to serialize a BigInt' },
    { name: 'missing', args: '{}', error: `tool module ${modulePath} has no function export 'nope'` },
    { name: 'nosuch', args: '{}', error: 'unknown tool \'nosuch\'' },
    { name: 'echo', args: '{"item": ', error: 'arguments are not valid JSON' },
    { name: 'echo', args: '[1]', error: 'arguments must be a JSON object, got [1]' },
  ])('$error: an error step and an error result the model reads', async ({ name, args, error }) => {
    const { step, message } = await call(name, args);
    expect(step.error).toContain(error);
    expect(message.isError).toBe(true);
    expect(message.content).toBe(`Error: ${step.error ?? ''}`);
    expect(step.result_bytes).toBe(Buffer.byteLength(message.content));
  });

  test('a huge result is cut to MAX_RESULT_BYTES, visibly', async () => {
    const { message, step } = await call('big');
    expect(message.content.startsWith('x'.repeat(1000))).toBe(true);
    expect(message.content).toContain(`[tool result cut: 200000 bytes, ${MAX_RESULT_BYTES} kept]`);
    expect(step.result_bytes).toBeLessThan(MAX_RESULT_BYTES + 100);
  });

  test('retry = same tool and arguments as an earlier failed step, whatever the key order', async () => {
    const first = (await call('fail', '{"a":1,"b":2}')).step;
    const earlier: ToolStep[] = [first];
    expect((await runToolCall({ id: 'c2', name: 'fail', arguments: '{"b":2,"a":1}' }, 3, earlier, context)).step.retry).toBe(true);
    expect((await runToolCall({ id: 'c3', name: 'fail', arguments: '{"a":2}' }, 3, earlier, context)).step.retry).toBe(false);
    // Repeating a call that worked is a duplicate, not a retry.
    const ok = (await call('echo', '{"a":1}')).step;
    expect((await runToolCall({ id: 'c4', name: 'echo', arguments: '{"a":1}' }, 3, [ok], context)).step.retry).toBe(false);
  });
});
