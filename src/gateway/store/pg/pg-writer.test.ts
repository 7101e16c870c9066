/**
 * The backlog a replica reports (and waits on when it stops) counts a settlement batch while it
 * is being written, not only while it is queued: between `splice` and the commit, a batch is
 * neither queued nor written.
 */
import { expect, test } from 'vitest';
import type { Database } from '../../../db/index.js';
import { PgWriter, type SettlementRow } from './pg-writer.js';

test('a batch in flight is backlog until its statement returns', async () => {
  let commit: () => void = () => undefined;
  const statements: string[] = [];
  const db = {
    query: (query: { text: string }) => {
      statements.push(query.text);
      return new Promise((resolve) => {
        commit = () => resolve({ rows: [] });
      });
    },
  } as unknown as Database;
  const writer = new PgWriter(db, 'test');
  writer.settle({ ticket: 't1', kind: 'call', key_id: 'k', booked: 10, over: 0, call_id: 'c1' } as SettlementRow);
  writer.settle({ ticket: 't2', kind: 'call', key_id: 'k', booked: 20, over: 0, call_id: 'c2' } as SettlementRow);
  expect(writer.backlog).toBe(2);
  // The batch starts on the next turn: both rows leave the queue in one statement.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  expect(statements).toHaveLength(1);
  expect(writer.backlog).toBe(2);
  commit();
  await writer.flush();
  expect(writer.backlog).toBe(0);
});
