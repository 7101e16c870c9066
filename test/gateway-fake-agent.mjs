#!/usr/bin/env node
/**
 * A stand-in for Claude Code / Codex in tests: a CLI agent that talks to whatever base URL
 * its environment names (ANTHROPIC_BASE_URL / OPENAI_BASE_URL, as the command executor sets
 * them) with the official SDKs, makes two model calls per task (draft, then final), asks
 * for far more output than any budget allows (streamed, as Claude Code does: 128,000), and prints the
 * final answer. Like the real clients it stops at once on a 429 that says not to retry.
 *
 *   node gateway-fake-agent.mjs "question" [--sdk anthropic|openai-chat|openai-responses] [--stream] [--out FILE]
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { sdk: { type: 'string', default: 'anthropic' }, stream: { type: 'boolean', default: false }, out: { type: 'string' } } });
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
  if (values.out) writeFileSync(values.out, text);
  else process.stdout.write(`${text}\n`);
}
