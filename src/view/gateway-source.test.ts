import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { KeyStore } from '../gateway/keys/key-store.js';
import { readGatewaySpend } from './gateway-source.js';

test('Spend reads keys without secrets, open reservations from the newest journal, and the daily ledgers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-view-gw-'));
  mkdirSync(join(dir, 'ledger'));
  const store = KeyStore.open(join(dir, 'keys.sqlite'));
  const { key, secret } = store.create({ budget: 5000, tags: { run: 'bf-1' } });
  store.close();
  const reserve = (call: string, tokens: number): string => JSON.stringify({ op: 'reserve', call, key: key.id, tokens, ts: 't', model: 'm', endpoint: '/v1/messages', protocol: 'anthropic-messages', stream: false });
  // Generation 3 is stale (a rotation in progress); 4 is live: c1 settled, c2 and c3 in flight, a torn last line.
  writeFileSync(join(dir, 'spend-3.journal'), `${reserve('old', 999)}\n`);
  writeFileSync(join(dir, 'spend-4.journal'), [reserve('c1', 100), JSON.stringify({ op: 'settle', call: 'c1', key: key.id, booked: 40 }), reserve('c2', 300), reserve('c3', 200), '{"op":"res'].join('\n'));
  const base = { schema_version: 1, kind: 'call', run_id: 'bf-1', case_id: 'c', arm: 'candidate_single', key_id: key.id, model: 'claude-x', total_tokens: 40, usage_missing: false, cost_usd: 0.01 };
  writeFileSync(join(dir, 'ledger', 'calls-2026-12-01.jsonl'), `${JSON.stringify({ ...base, ts: '2026-12-01T10:00:00Z' })}\n${JSON.stringify({ ...base, ts: '2026-12-01T11:00:00Z', total_tokens: 700, over_reservation: 60, reserved_tokens: 640 })}\n`);
  const spend = readGatewaySpend(dir, dir);
  expect(spend.keys).toHaveLength(1);
  expect(spend.keys[0]).toMatchObject({ id: key.id, budget: 5000, reserved: 500, tags: { run: 'bf-1' } });
  expect(JSON.stringify(spend)).not.toContain(secret.slice(-20));
  expect(spend.byDay).toEqual([{ group: '2026-12-01', calls: 2, tokens: 740, missing: 0, cost: 0.02 }]);
  expect(spend.overReservations).toEqual([{ ts: '2026-12-01T11:00:00Z', keyId: key.id, model: 'claude-x', reserved: 640, over: 60 }]);
});
