#!/usr/bin/env node
/**
 * An upstream that answers every request at once with a fixed Anthropic or OpenAI reply and a
 * usage of one prompt token (no tokenizer): what is measured behind it is the
 * gateway alone, not an upstream that tokenizes the same 50 KB bodies too. Prints one JSON
 * line `{"url": "http://127.0.0.1:PORT"}` once listening; exits when stdin closes.
 */
import { createServer } from 'node:http';

const server = createServer((request, response) => {
  let bytes = 0;
  request.on('data', (chunk) => (bytes += chunk.length));
  request.on('end', () => {
    // One token whatever was sent: the budget is not what is measured here, and a bill that
    // tracked the body would close the key on the 200k-letter request (its o200k count is far
    // below what the ratio learned on prose predicts — see the README's guarantee).
    const input = bytes > 0 ? 1 : 0;
    const body = (request.url ?? '').startsWith('/v1/messages')
      ? { id: 'msg_1', type: 'message', role: 'assistant', model: 'fixed', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: input, output_tokens: 2 } }
      : { id: 'c1', object: 'chat.completion', model: 'fixed', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: input, completion_tokens: 2, total_tokens: input + 2 } };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.stdin.on('end', () => server.close(() => process.exit(0)));
process.stdin.resume();
