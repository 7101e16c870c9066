import { describe, expect, test } from 'vitest';
import { rawKeyCount, walkBody } from './body-walk.js';

const parse = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('rawKeyCount equals the parsed keys exactly when no key is repeated', () => {
  test.each([
    ['compact', '{"a":1,"b":{"c":[{"d":"x"}]}}'],
    ['pretty, with space before colons', '{\n  "a" : 1,\n\t"b"\r\n:\t{ "c": [ { "d" :"x" } ] }\n}'],
    ['escaped quotes and backslashes in strings', '{"a":"say \\"b\\": yes","c\\\\":"\\\\","d":"\\\\\\":"}'],
    ['escapes in key names', '{"\\u006dax_tokens":5,"n":1}'],
    ['strings that look like keys', '{"a":["\\"x\\":1", ":", "\\":"]}'],
    ['empty objects and strings', '{"":{},"e":"","f":[{}]}'],
  ])('%s', (_name, text) => {
    expect(rawKeyCount(text)).toBe(walkBody(parse(text)).keys);
  });

  test.each([
    ['a repeated cap', '{"max_tokens":100000,"max_tokens":10}'],
    ['a repeated cap, one spelled with an escape', '{"max\\u005ftokens":100000,"max_tokens":10}'],
    ['a repeated cap, whitespace before the colon', '{"max_tokens" :100000,"max_tokens":10}'],
    ['a repeated type deep in the messages', '{"messages":[{"role":"user","content":[{"type":"image_url","type":"text","text":"x"}]}]}'],
    ['a repeated detail', '{"messages":[{"content":[{"type":"image_url","image_url":{"url":"https://x/y.png","detail":"high","detail":"low"}}]}]}'],
  ])('%s is seen', (_name, text) => {
    expect(rawKeyCount(text)).toBeGreaterThan(walkBody(parse(text)).keys);
  });

  test('random bodies, compact and pretty-printed (seeded)', () => {
    let seed = 7;
    const random = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff;
    const pieces = ['a', '"', '\\', ':', ' ', '{', '}', 'é', '\n', ','];
    const text = (): string => Array.from({ length: Math.floor(random() * 6) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    const value = (depth: number): unknown => {
      const pick = random();
      if (depth > 3 || pick < 0.3) return text();
      if (pick < 0.4) return Math.floor(random() * 100);
      if (pick < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`${text()}${i}`, value(depth + 1)]));
    };
    for (let i = 0; i < 500; i += 1) {
      const body = { root: value(0) };
      for (const spacing of [undefined, 2]) expect(rawKeyCount(JSON.stringify(body, null, spacing))).toBe(walkBody(body).keys);
    }
  });
});

describe('walkBody finds what bills by type anywhere', () => {
  const png = 'data:image/png;base64,iVBORw0KGgo=';
  test('images inside function_call_output arrays and computer_call_output screenshots (Responses)', () => {
    const body = {
      model: 'm',
      input: [
        { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'see' }, { type: 'input_image', image_url: png, detail: 'high' }] },
        { type: 'computer_call_output', call_id: 'c2', output: { type: 'computer_screenshot', image_url: png } },
        { type: 'computer_call_output', call_id: 'c3', output: { type: 'input_image', file_id: 'file_1' } },
      ],
    };
    const walk = walkBody(body);
    expect(walk.images).toEqual([
      { data: undefined, detail: undefined },
      { data: png, detail: undefined },
      { data: png, detail: 'high' },
    ]);
    expect(walk.unestimable).toBeUndefined();
  });

  test('a JSON escape in a type is the type it parses to', () => {
    const body = parse('{"messages":[{"role":"user","content":[{"type":"\\u0069mage_url","image_url":{"url":"https://x/y.png"}}]}]}');
    expect(walkBody(body).images).toHaveLength(1);
  });

  test.each([
    ['item_reference', { input: [{ type: 'item_reference', id: 'msg_1' }] }],
    ['input_file in a function_call_output', { input: [{ type: 'function_call_output', call_id: 'c', output: [{ type: 'input_file', file_id: 'file_1' }] }] }],
    ['input_file in a tool message (chat)', { messages: [{ role: 'tool', tool_call_id: 't', content: [{ type: 'file', file: { file_id: 'f' } }] }] }],
    ['a PDF inside a tool_result (Anthropic)', { messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } }] }] }] }],
  ])('%s is unestimable', (_name, body) => {
    expect(walkBody(body).unestimable).toBeDefined();
  });

  test('tool definitions, schemas and a model’s tool arguments are not content', () => {
    const body = {
      tools: [{ name: 't', input_schema: { type: 'object', properties: { f: { type: 'file' } } } }],
      response_format: { type: 'json_schema', json_schema: { schema: { type: 'file' } } },
      messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'Grep', input: { type: 'file', image: { type: 'image' } } }] }],
    };
    const walk = walkBody(body);
    expect(walk.unestimable).toBeUndefined();
    expect(walk.images).toEqual([]);
  });
});
