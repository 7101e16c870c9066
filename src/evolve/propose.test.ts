/**
 * The propose step with a scripted proposer: a proposal that fails a check gets exactly one
 * repair request carrying the reason; a good repair is kept, a bad one is dropped with the
 * reason; every call is in the loop's ledger as `role: propose`, and the repair turn is in
 * proposer-input.md. A reply already on disk is never asked for again.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../config/index.js';
import { finishReason } from '../core/finish-reason.js';
import type { ChatMessage } from '../core/messages.js';
import { countTokens } from '../core/tokens.js';
import { makeUsage } from '../core/usage.js';
import { readJsonl } from '../ledger/jsonl-reader.js';
import type { CallRecord } from '../ledger/records.js';
import { unifiedDiff } from '../memory/unified-diff.js';
import { openMemoryStore } from '../memory/store/open.js';
import type { Provider } from '../providers/spec.js';
import type { LoopContext } from './context.js';
import { loopPaths } from './layout.js';
import { proposeRound } from './propose.js';
import { evolveSettings } from './settings.js';
import type { Diagnosis } from './types.js';

const EXAMPLE = new URL('../../examples/evolve-date-parser/', import.meta.url).pathname;
const V1 = readFileSync(join(EXAMPLE, 'skills', 'date-parser.md'), 'utf8');
const stores: Array<{ close(): void }> = [];
afterAll(() => {
  for (const s of stores) s.close();
});

function withRule(version: string, rule: string): string {
  return V1.replace('version: 1', `version: ${version}`).replace('- Pad single-digit months and days with a leading zero.', `- Pad single-digit months and days with a leading zero.\n${rule}`);
}

const block = (slot: number, version: string, rule: string): string => `### Proposal ${slot}: add ${rule}\n\`\`\`diff\n${unifiedDiff(V1, withRule(version, rule), { from: 'SKILL.md', to: 'SKILL.md' })}\`\`\``;

/** A provider that answers with the scripted replies in order, and records what it was asked. */
function scripted(replies: string[]): Provider & { asked: ChatMessage[][] } {
  const asked: ChatMessage[][] = [];
  return {
    protocol: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1', supportsNativeN: false, asked,
    async generate(request) {
      asked.push(request.messages);
      const text = replies.shift() ?? '';
      return { choices: [{ text, finishReason: finishReason('stop', 'stop') }], usage: makeUsage({ inputTokens: 100, outputTokens: countTokens(text) }), status: 200 };
    },
  };
}

async function context(provider: Provider): Promise<LoopContext> {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-propose-'));
  const config = await loadConfig(join(EXAMPLE, 'experiment.yaml'));
  const store = openMemoryStore(join(dir, 'memory.sqlite'));
  stores.push(store);
  return {
    evolveId: 'p', config, settings: evolveSettings(config), paths: loopPaths(dir), store, env: {}, signal: undefined,
    runProvider: () => provider, proposerProvider: provider, secrets: [], concurrency: undefined, skillName: 'date-parser',
    start: { version: '1', text: V1, file: join(EXAMPLE, 'skills', 'date-parser.md'), variantId: 'skill-date-parser-v1', tokens: countTokens(V1) },
    cases: { train: [], val: [], test: [], regression: [] }, production: undefined, log: () => undefined, now: () => new Date('2026-06-01T00:00:00Z'),
  };
}

const diagnosis: Diagnosis = { schema_version: 1, round: 1, incumbent_version: '1', run_dir: 'r', cases: 0, passed: 0, pass_rate: 0, modes: [], examples: [], production: null };
const ORDINAL = '- Ordinal dates (`YYYY-DDD`): day of the year.';
const SLASH = '- Slash dates are `MM/DD/YYYY`: month first.';

describe('proposeRound', () => {
  test('one repair request with the reason; a good repair is kept', async () => {
    const provider = scripted([`${block(1, '9', ORDINAL)}\n\n${block(2, '3', SLASH)}`, block(1, '2', ORDINAL)]);
    const loop = await context(provider);
    const proposals = await proposeRound(loop, 1, { version: '1', text: V1 }, diagnosis, []);
    expect(proposals.map((p) => [p.slot, p.version, p.check.ok, p.repaired])).toEqual([[1, '2', true, true], [2, '3', true, false]]);
    expect(provider.asked).toHaveLength(2);
    const repairTurn = provider.asked[1]?.at(-1)?.content ?? '';
    expect(repairTurn).toContain('Proposal 1 (version 2) for `date-parser` was refused: version 9 is not the one given for this proposal (2)');
    expect(provider.asked[1]?.at(-2)?.role).toBe('assistant');
    const calls = readJsonl<CallRecord>(loop.paths.calls).records;
    expect(calls.map((c) => [c.role, c.case_id, c.split])).toEqual([['propose', 'propose-r1', 'train'], ['propose', 'repair-r1-p1', 'train']]);
    expect(proposals.reduce((sum, p) => sum + p.proposerTokens, 0)).toBe(calls.reduce((sum, c) => sum + (c.total_tokens ?? 0), 0));
    expect(readFileSync(loop.paths.round(1).proposerInput, 'utf8')).toContain('## Repair request (proposal 1)');
    // Replayed (a resume): the replies on disk are used, nothing is asked again.
    const again = await proposeRound(loop, 1, { version: '1', text: V1 }, diagnosis, []);
    expect(again.map((p) => p.check.ok)).toEqual([true, true]);
    expect(provider.asked).toHaveLength(2);
  });

  test('a repair that fails again drops the proposal, with the reason; a missing proposal is asked for once too', async () => {
    const provider = scripted([block(1, '2', ORDINAL), 'no diff here']);
    const loop = await context(provider);
    const proposals = await proposeRound(loop, 1, { version: '1', text: V1 }, diagnosis, []);
    expect(proposals[0]?.check.ok).toBe(true);
    expect(proposals[1]).toMatchObject({ slot: 2, version: '3', repaired: true, check: { ok: false, code: 'no_diff' } });
    expect(provider.asked).toHaveLength(2);
    expect(provider.asked[1]?.at(-1)?.content).toContain('Proposal 2 (version 3) for `date-parser` was refused: the reply has no proposal 2');
  });
});
