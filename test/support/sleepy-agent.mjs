#!/usr/bin/env node
// A stand-in for a slow agent: one chat call through the run's gateway, then a pause (argv[3], ms), then the answer on stdout.
const [input, pause] = process.argv.slice(2);
const response = await fetch(`${process.env.OPENAI_BASE_URL}/chat/completions`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.OPENAI_API_KEY}` },
  body: JSON.stringify({ model: process.env.ISOBUDGET_MODEL, max_tokens: 64, messages: [{ role: 'user', content: input }] }),
});
const body = await response.json();
await new Promise((resolve) => setTimeout(resolve, Number(pause ?? 0)));
process.stdout.write(`${body.choices?.[0]?.message?.content ?? ''}\n`);
