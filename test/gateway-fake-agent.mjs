#!/usr/bin/env node
/**
 * A stand-in for Claude Code / Codex in tests: a CLI agent that talks to whatever base URL
 * its environment names (ANTHROPIC_BASE_URL / OPENAI_BASE_URL, as the command executor sets
 * them) with the official SDKs, makes two model calls per task (draft, then final), asks
 * for far more output than any budget allows (streamed, as Claude Code does: 128,000), and prints the
 * final answer. Like the real clients it stops at once on a 429 that says not to retry.
 *
 *   node gateway-fake-agent.mjs "question" [--sdk anthropic|openai-chat|openai-responses] [--stream] [--out FILE]
 *     [--print text|claude-json|codex-jsonl]
 *
 * `--print claude-json` prints the answer as `claude -p --output-format json` does (one result
 * object, the answer in `result`); `--print codex-jsonl` as `codex exec --json` does (JSON
 * Lines events, the answer in the `item.completed` event of an `agent_message`).
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { sdk: { type: 'string', default: 'anthropic' }, stream: { type: 'boolean', default: false }, out: { type: 'string' }, print: { type: 'string', default: 'text' } } });
const question = positionals[0] ?? readFileSync(process.env.ISOBUDGET_INPUT_FILE, 'utf8');
const system = process.env.ISOBUDGET_SYSTEM_PROMPT_FILE ? readFileSync(process.env.ISOBUDGET_SYSTEM_PROMPT_FILE, 'utf8') : '';
const model = process.env.ISOBUDGET_MODEL ?? 'sim-small';

async function ask(messages) {
  if (values.sdk === 'anthropic') {
    const client = new Anthropic({ maxRetries: 2 });
    // The SDK refuses a non-streamed call whose cap could take over 10 minutes.
    const body = { model, max_tokens: values.stream ? 128000 : 16000, system: system || undefined, messages };
    if (values.stream) {
      const message = await client.messages.stream(body).finalMessage();
      return message.content.map((b) => b.text ?? '').join('');
    }
    const message = await client.messages.create(body);
    return message.content.map((b) => b.text ?? '').join('');
  }
  const client = new OpenAI({ maxRetries: 2 });
  const withSystem = system ? [{ role: 'system', content: system }, ...messages] : messages;
  if (values.sdk === 'openai-chat') {
    if (values.stream) {
      let text = '';
      for await (const chunk of await client.chat.completions.create({ model, messages: withSystem, stream: true })) text += chunk.choices[0]?.delta?.content ?? '';
      return text;
    }
    return (await client.chat.completions.create({ model, messages: withSystem })).choices[0]?.message?.content ?? '';
  }
  // Codex-like: Responses, no max_output_tokens.
  if (values.stream) {
    const stream = client.responses.stream({ model, input: withSystem });
    return (await stream.finalResponse()).output_text;
  }
  return (await client.responses.create({ model, input: withSystem })).output_text;
}

let answer = '';
try {
  const draft = await ask([{ role: 'user', content: question }]);
  answer = draft;
  answer = await ask([{ role: 'user', content: question }, { role: 'assistant', content: draft }, { role: 'user', content: `Check it and answer again: ${question}` }]);
} catch (error) {
  process.stderr.write(`agent stopped: ${error?.status ?? ''} ${error?.message ?? error}\n`);
  if (answer) emit(answer);
  process.exit(3);
}
emit(answer);

function emit(text) {
  const printed = values.print === 'claude-json' ? claudeJson(text) : values.print === 'codex-jsonl' ? codexJsonl(text) : text;
  if (values.out) writeFileSync(values.out, printed);
  else process.stdout.write(`${printed}\n`);
}

function claudeJson(text) {
  return JSON.stringify({ type: 'result', subtype: 'success', is_error: false, duration_ms: 1200, duration_api_ms: 1100, num_turns: 2, result: text, session_id: '75ab075f-776a-4bfc-b626-e76db56da17d', total_cost_usd: 0, usage: { input_tokens: 0, output_tokens: 0 } });
}

function codexJsonl(text) {
  return [
    { type: 'thread.started', thread_id: '01a22623-91d9-7533-a692-151c26d275b2' },
    { type: 'turn.started' },
    { type: 'item.completed', item: { id: 'item_0', type: 'reasoning', text: '**Checking the sum**' } },
    { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text } },
    { type: 'turn.completed', usage: { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0 } },
  ].map((event) => JSON.stringify(event)).join('\n');
}
