// A separate process that writes to a memory store, for the crash and concurrency tests.
// Uses the built store from dist/ (vitest's global setup builds it).
//   node memory-store-child.mjs crash FILE           — start a big change set, report, hang inside the transaction
//   node memory-store-child.mjs writer FILE NAME N   — N read-modify-write rounds on one shared record
import { newRecord } from '../dist/memory/new-record.js';
import { withConflictRetry } from '../dist/memory/store/spec.js';
import { SqliteMemoryStore } from '../dist/memory/store/sqlite-store.js';
import { nextVersion, writeOf } from '../dist/memory/versioning.js';

const [mode, file, name = 'w', countText = '0'] = process.argv.slice(2);
const provenance = { source_run: 'bf-child', base_url: 'sim://local', model: 'sim-small', budget: 1000, n: 1, verdict: 'real_evolution' };
const at = new Date('2026-06-01T00:00:00.000Z');

if (mode === 'crash') {
  const store = new SqliteMemoryStore(file, {
    beforeCommit: () => {
      process.stdout.write('inside-transaction\n');
      // Block the thread (and so the open transaction) until the parent kills us.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
    },
  });
  const head = await store.getRecord('mem-shared-001');
  const records = [writeOf(head, nextVersion(head, { body: 'half-written\n' }, 'never committed', at))];
  for (let i = 1; i <= 50; i++) records.push(writeOf(undefined, newRecord(`mem-crash-${String(i).padStart(3, '0')}`, 'learning', { ...provenance, subject: 'crash', source: 'child', changelog: 'never committed', weight: 0.5 }, at)));
  await store.commit({ records });
  process.stdout.write('committed (unexpected)\n');
} else if (mode === 'writer') {
  const store = new SqliteMemoryStore(file);
  let attempts = 0;
  const count = Number(countText);
  for (let i = 1; i <= count; i++) {
    await withConflictRetry(async () => {
      attempts++;
      const head = await store.getRecord('mem-shared-001');
      const mine = newRecord(`mem-${name}-${String(i).padStart(3, '0')}`, 'learning', { ...provenance, subject: name, source: 'child', changelog: `${name} ${i}`, weight: 0.5 }, at);
      await store.commit({ records: [writeOf(head, nextVersion(head, { title: `${name} ${i}` }, `${name} ${i}`, at)), writeOf(undefined, mine)] });
    }, 1000);
  }
  store.close();
  process.stdout.write(`${JSON.stringify({ name, count, retries: attempts - count })}\n`);
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
