import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { collectErrors, tempTree } from '../test-support/config-helpers.js';
import { loadConfig } from './load.js';

const BASE = [
  'experiment: agent',
  'provider: { preset: sim }',
  'models: { candidate: sim-small }',
  'datasets: { val: val.jsonl }',
  'executor:',
  '  type: agent',
].join('\n');
const LOOKUP = '{ name: lookup, description: Stock of one item, parameters: { type: object, properties: { item: { type: string } } }';

async function load(yaml: string, files: Record<string, string> = {}) {
  const dir = tempTree({ 'experiment.yaml': yaml, 'val.jsonl': '{"id":"a","input":"x","expected":"1"}\n', 'tools.mjs': 'export const lookup = () => 1;\n', ...files });
  return { dir, config: await loadConfig(join(dir, 'experiment.yaml')).catch((error: unknown) => error) };
}

describe('executor: { type: agent }', () => {
  test('normalizes tools: module paths absolute, export defaults to the tool name, ./ arguments of commands resolved', async () => {
    const yaml = `${BASE}\n  tools:\n    - ${LOOKUP}, module: ./tools.mjs }\n    - { name: calc, command: [node, ./calc.mjs, --fast] }`;
    const { dir, config } = await load(yaml);
    expect(config).toMatchObject({
      executor: {
        type: 'agent',
        maxTurns: 8,
        toolTimeoutMs: 5000,
        tools: [
          { name: 'lookup', description: 'Stock of one item', parameters: { type: 'object' }, source: { kind: 'module', module: join(dir, 'tools.mjs'), export: 'lookup' } },
          { name: 'calc', description: '', parameters: { type: 'object', properties: {} }, source: { kind: 'command', argv: ['node', join(dir, 'calc.mjs'), '--fast'] } },
        ],
      },
    });
  });

  test('max_turns, tool_timeout_ms and export are taken as given', async () => {
    const { config } = await load(`${BASE}\n  max_turns: 3\n  tool_timeout_ms: 250\n  tools: [${LOOKUP}, module: ./tools.mjs, export: stock }]`);
    expect(config).toMatchObject({ executor: { maxTurns: 3, toolTimeoutMs: 250, tools: [{ source: { export: 'stock' } }] } });
  });

  test('chat stays the default', async () => {
    const { config } = await load(BASE.replace(/\nexecutor:\n {2}type: agent/, ''));
    expect(config).toMatchObject({ executor: { type: 'chat' } });
  });

  test.each([
    { name: 'no module or command', tools: `[${LOOKUP} }]`, message: 'a tool needs `module` or `command`', key: 'executor.tools[0].module' },
    { name: 'both module and command', tools: `[${LOOKUP}, module: ./tools.mjs, command: [node, x.mjs] }]`, message: 'give either `module` or `command`, not both', key: 'executor.tools[0].command' },
    { name: 'export on a command', tools: '[{ name: a, command: [node], export: x }]', message: '`export` only applies to a `module` tool', key: 'executor.tools[0].export' },
    { name: 'duplicate names', tools: '[{ name: a, command: [x] }, { name: a, command: [y] }]', message: 'tool name `a` is used twice', key: 'executor.tools[1].name' },
    { name: 'a name the APIs reject', tools: '[{ name: "look up", command: [x] }]', message: 'must be 1–64 letters, digits, _ or - (what OpenAI and Anthropic accept)', key: 'executor.tools[0].name' },
    { name: 'a misspelled key', tools: '[{ name: a, comand: [x] }]', message: 'unknown key `comand` under `executor.tools[0]`; did you mean `command`?', key: 'executor.tools[0].comand' },
    { name: 'a missing module file', tools: '[{ name: a, module: ./missing.mjs }]', message: 'tool module not found', key: 'executor.tools[0].module' },
    { name: 'no tools', tools: '[]', message: 'must have at least 1 item(s)', key: 'executor.tools' },
  ])('$name is an error naming its key', async ({ tools, message, key }) => {
    const dir = tempTree({ 'experiment.yaml': `${BASE}\n  tools: ${tools}`, 'val.jsonl': '{"id":"a","input":"x","expected":"1"}\n', 'tools.mjs': '' });
    const errors = await collectErrors(() => loadConfig(join(dir, 'experiment.yaml')));
    const error = errors.find((e) => e.location?.key === key);
    expect(error?.message, errors.map((e) => e.format()).join('\n')).toContain(message);
    expect(error?.location?.line).toBe(7);
  });

  test('an unknown executor type suggests the right one', async () => {
    const dir = tempTree({ 'experiment.yaml': BASE.replace('type: agent', 'type: agnet'), 'val.jsonl': '{"id":"a","input":"x","expected":"1"}\n' });
    const errors = await collectErrors(() => loadConfig(join(dir, 'experiment.yaml')));
    expect(errors[0]?.message).toContain('did you mean `agent`?');
  });
});
