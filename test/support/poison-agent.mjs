#!/usr/bin/env node
// A poison unit's agent: on the unit named by argv[5] (`case/arm`) it kills the process that
// started it — the worker — with SIGKILL, as the kernel's OOM killer or a segfault in a native
// module would; any other unit is the sleepy agent (one call through the run's gateway, a pause, the answer).
const [input, pause, caseId, arm, poison] = process.argv.slice(2);
if (`${caseId}/${arm}` === poison) {
  process.kill(process.ppid, 'SIGKILL');
  process.exit(137);
}
const response = await fetch(`${process.env.OPENAI_BASE_URL}/chat/completions`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.OPENAI_API_KEY}` },
  body: JSON.stringify({ model: process.env.ISOBUDGET_MODEL, max_tokens: 64, messages: [{ role: 'user', content: input }] }),
});
const body = await response.json();
await new Promise((resolve) => setTimeout(resolve, Number(pause ?? 0)));
process.stdout.write(`${body.choices?.[0]?.message?.content ?? ''}\n`);
