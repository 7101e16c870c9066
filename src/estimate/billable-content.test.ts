import { describe, expect, test } from 'vitest';
import { countTokens } from '../core/tokens.js';
import { billableContent } from './billable-content.js';
import { bodyShape } from './body-shape.js';
import { familyImageTokens, IMAGE_MAX } from './image-tables.js';
import { modelFamily } from './model-family.js';
import { definedToolTokens, toolPromptFloor, toolPromptTokens } from './published-overheads.js';

describe('model families', () => {
  test.each([
    ['gpt-4o-mini-2024-07-18', 'gpt-4o-mini'],
    ['openai/gpt-4o', 'openai-tiles'],
    ['gpt-4.1', 'openai-tiles'],
    ['gpt-4.1-mini', 'gpt-4.1-mini'],
    ['gpt-5-nano', 'gpt-4.1-nano'],
    ['o4-mini', 'o4-mini'],
    ['o3', 'openai-o-tiles'],
    ['o3-mini', 'openai-text'],
    ['gpt-5', 'openai-text'],
    ['anthropic/claude-sonnet-4', 'claude'],
    ['qwen-max', 'unknown'],
    ['m', 'unknown'],
  ])('%s → %s', (model, family) => {
    expect(modelFamily(model)).toBe(family);
  });
});

describe('image tables (OpenAI and Anthropic worked examples)', () => {
  test.each([
    ['gpt-4o', { width: 1024, height: 1024 }, 'high', 765],
    ['gpt-4o', { width: 2048, height: 4096 }, 'high', 1105],
    ['gpt-4o', { width: 4096, height: 8192 }, 'low', 85],
    // 640×480: 2 tiles. gpt-4o-mini bills the same dollars as gpt-4o at 33× more tokens.
    ['gpt-4o-mini', { width: 640, height: 480 }, 'high', 2833 + 2 * 5667],
    ['gpt-4o-mini', { width: 640, height: 480 }, 'low', 2833],
    ['o1', { width: 1024, height: 1024 }, 'high', 75 + 4 * 150],
    // Patches: 1024×1024 is 1,024 patches; larger images are scaled to at most 1,536.
    ['gpt-4.1-mini', { width: 1024, height: 1024 }, 'high', Math.ceil(1024 * 1.62)],
    ['gpt-4.1-nano', { width: 1024, height: 1024 }, 'low', Math.ceil(1024 * 2.46)],
    ['o4-mini', { width: 1800, height: 2400 }, 'high', Math.ceil(1536 * 1.72)],
    // Anthropic: 1092×1092 is the largest square not resized (~1,590 tokens).
    ['claude-sonnet-4', { width: 1092, height: 1092 }, 'auto', 1590],
  ] as const)('%s %o detail %s → %i', (model, size, detail, tokens) => {
    expect(familyImageTokens(modelFamily(model), size, detail)).toBe(tokens);
  });

  test('an unknown model: the largest table for that image', () => {
    expect(familyImageTokens('unknown', { width: 640, height: 480 }, 'high')).toBe(2833 + 2 * 5667);
    expect(familyImageTokens('unknown', undefined, 'high')).toBe(IMAGE_MAX);
  });
});

describe('published overheads', () => {
  test("Anthropic's tool-use system prompt per model and tool_choice; the largest for a Claude model not in the table", () => {
    expect(toolPromptTokens('claude', 'claude-sonnet-4-20250514', false)).toBe(346);
    expect(toolPromptTokens('claude', 'claude-3-7-sonnet-latest', true)).toBe(313);
    expect(toolPromptTokens('claude', 'claude-3-opus-20240229', false)).toBe(530);
    expect(toolPromptTokens('claude', 'claude-sonnet-4-20250514', undefined)).toBe(346);
    expect(toolPromptTokens('claude', 'claude-opus-9', false)).toBe(804);
    expect(toolPromptTokens('openai-tiles', 'gpt-4o', false)).toBe(0);
    expect(toolPromptTokens('unknown', 'm', false)).toBe(804);
    // What a bill surely holds (taken off before a ratio is learned): the row's, else the smallest published.
    expect(toolPromptFloor('claude', 'claude-sonnet-4-20250514', false)).toBe(346);
    expect(toolPromptFloor('claude', 'claude-opus-9', false)).toBe(159);
    expect(toolPromptFloor('unknown', 'm', false)).toBe(0);
  });

  test('Anthropic-defined tools: bash 245, text_editor 700, computer 735 + its system prompt; a new versioned type the largest', () => {
    expect(definedToolTokens('bash_20250124')).toBe(245);
    expect(definedToolTokens('text_editor_20250728')).toBe(700);
    expect(definedToolTokens('computer_20250124')).toBe(735 + 499);
    expect(definedToolTokens('memory_20250818')).toBe(735 + 499);
    expect(definedToolTokens('custom')).toBeUndefined();
    expect(definedToolTokens(undefined)).toBeUndefined();
  });
});

describe('billable content', () => {
  test('chat: message text and roles, not the envelope; 3 a message + 3 priming (+1 a name) for an OpenAI model', () => {
    const body = {
      model: 'gpt-4o',
      temperature: 0.2,
      max_tokens: 10,
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', name: 'ann', content: 'Hello there' },
      ],
    };
    const content = billableContent('openai-chat', body);
    expect(content.parts).toEqual(['system', 'Be brief.', 'user', 'ann', 'Hello there']);
    expect(content.overhead).toBe(2 * 3 + 3 + 1);
    expect(content.overheadFloor).toBe(2 * 3 + 3);
    expect(content.messages).toBe(2);
  });

  test('short turns: the billable text is a small part of the JSON (what the old estimator counted and learned against)', () => {
    const body = {
      model: 'qwen-max',
      max_tokens: 20,
      messages: Array.from({ length: 30 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: i % 2 === 0 ? `ok ${i}?` : 'yes' })),
    };
    const content = billableContent('openai-chat', body);
    expect(countTokens(content.parts.join('\n'))).toBeLessThan(countTokens(JSON.stringify(body)) / 2);
  });

  test('images are counted, their data is not text; images outside message content are text', () => {
    const data = `data:image/png;base64,${'A'.repeat(5000)}`;
    const content = billableContent('openai-chat', {
      model: 'gpt-4o',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is it?' },
            { type: 'image_url', image_url: { url: data } },
          ],
        },
      ],
    });
    expect(content.images).toBe(1);
    expect(content.parts.join('\n')).not.toContain('AAAA');
    const elsewhere = billableContent('openai-responses', {
      model: 'gpt-4o',
      input: [{ type: 'computer_call_output', call_id: 'c1', output: { type: 'input_image', image_url: data } }],
    });
    expect(elsewhere.parts.join('\n')).toContain('AAAA');
  });

  test('Anthropic: system, tool calls and results, custom tools; the tool-use prompt and defined tools as published', () => {
    const body = {
      model: 'claude-sonnet-4-20250514',
      max_tokens: 100,
      metadata: { user_id: 'u-1' },
      system: [{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: 'Fix it.' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Look first.', signature: 'SIG'.repeat(50) },
            { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/a.ts' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'const a = 1;' }] }] },
      ],
      tools: [
        { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
        { name: 'Read', description: 'Reads a file.', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } },
      ],
    };
    const content = billableContent('anthropic-messages', body);
    for (const part of ['You are a coding agent.', 'Look first.', 'file_path', '/a.ts', 'const a = 1;', 'Reads a file.', 'str_replace_based_edit_tool'])
      expect(content.parts.join('\n')).toContain(part);
    for (const part of ['SIG', 'u-1', 'ephemeral', 'claude-sonnet']) expect(content.parts.join('\n')).not.toContain(part);
    // 4 messages (system + 3) × 4 + priming 3 + 2 tools × 22 + 1 property × 3 + tool prompt 346 + text editor 700.
    expect(content.overhead).toBe(4 * 4 + 3 + 2 * 22 + 3 + 346 + 700);
    // Only Anthropic's published figures are surely billed (its per-message framing is not published).
    expect(content.overheadFloor).toBe(346 + 700);
    expect(content.tools).toBe(2);
  });

  test('an unknown model: overheads at the most any family charges, nothing surely billed; unknown fields counted whole', () => {
    const content = billableContent('openai-chat', {
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'f', parameters: {} } }],
      web_search_options: { search_context_size: 'high' },
    });
    // A message, priming, a function, the largest tool prompt, and 3 a JSON object (the schema, the unknown field and its value).
    expect(content.overhead).toBe(4 + 3 + 22 + 804 + 3 * 3);
    expect(content.overheadFloor).toBe(0);
    expect(content.parts.join('\n')).toContain('search_context_size');
  });

  test('shapes: short turns, one page, CJK, tools are different buckets', () => {
    const shape = (text: string, messages: number, tools = 0) => bodyShape({ protocol: 'openai-chat', parts: [text], messages, tools, images: 0 });
    const short = shape('user\nok?\nassistant\nyes\n'.repeat(15), 60);
    const page = shape('A sentence of plain prose. '.repeat(300), 1);
    expect(short).not.toBe(page);
    expect(shape('预算公平的评测比较同样的案例'.repeat(100), 1)).not.toBe(shape('x'.repeat(1400), 1));
    expect(shape('A sentence of plain prose. '.repeat(300), 1, 2)).not.toBe(page);
    expect(shape('A sentence of plain prose. '.repeat(310), 1)).toBe(page);
  });
});

describe('hostile bodies', () => {
  test('arrays nested 200,000 deep are walked without recursion', () => {
    const deep = JSON.parse(`{"model":"m","messages":[{"role":"user","content":${'['.repeat(200_000)}"x"${']'.repeat(200_000)}}]}`) as Record<string, unknown>;
    const content = billableContent('openai-chat', deep);
    expect(content.parts).toContain('x');
    const objects = JSON.parse(`{"model":"m","extra":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`) as Record<string, unknown>;
    expect(billableContent('openai-chat', objects).parts.length).toBeGreaterThan(100_000);
  });
});
