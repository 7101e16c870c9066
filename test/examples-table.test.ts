/**
 * examples/README.md's table is generated (issue 15, item 8): it must be exactly what
 * examples/results.json renders to, and that JSON must cover every shipped example. The
 * example tests (examples.test.ts, agent-tool-loop-example.test.ts) compare fresh runs with
 * the JSON; `npm run examples:table` rewrites both files from real runs.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { renderExamplesTable, replaceGeneratedTable, TABLE_END, TABLE_START } from '../src/report/examples-table.js';
import { committedResults, EXAMPLES_DIR } from './support/examples-results.js';

test('the README table is the rendering of examples/results.json, which covers every example', () => {
  const results = committedResults();
  const readme = readFileSync(join(EXAMPLES_DIR, 'README.md'), 'utf8');
  expect(readme).toContain(TABLE_START);
  expect(readme).toContain(TABLE_END);
  expect(replaceGeneratedTable(readme, renderExamplesTable(results))).toBe(readme);
  const shipped = readdirSync(EXAMPLES_DIR).filter((name) => statSync(join(EXAMPLES_DIR, name)).isDirectory() && readdirSync(join(EXAMPLES_DIR, name)).includes('experiment.yaml'));
  expect(results.examples.map((f) => f.example).sort()).toEqual(shipped.sort());
  for (const figures of results.examples) {
    expect(figures.split).toBe('val');
    expect(figures.cases).toBe(200);
  }
});
