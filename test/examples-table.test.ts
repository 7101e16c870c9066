/**
 * examples/README.md's table is generated (issue 15, item 8): it must be exactly what
 * examples/results.json renders to, and that JSON must cover the examples it describes. The
 * example tests (examples.test.ts, agent-tool-loop-example.test.ts) compare fresh runs with
 * the JSON; `npm run examples:table` rewrites both files from real runs.
 */
import { existsSync, readFileSync } from 'node:fs';
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
  // The table lists the examples the script describes (scripts/examples-table.mjs), each a runnable experiment.
  expect(results.examples.map((f) => f.example)).toEqual(Object.keys(results.descriptions));
  for (const name of Object.keys(results.descriptions)) expect(existsSync(join(EXAMPLES_DIR, name, 'experiment.yaml')), name).toBe(true);
  // The five four-arm examples of the top-level README are all there.
  expect(Object.keys(results.descriptions).sort()).toEqual(expect.arrayContaining(['date-parser', 'null', 'search-leak', 'tool-loop', 'verbose-judge']));
  for (const figures of results.examples) {
    expect(figures.split).toBe('val');
    expect(figures.cases).toBe(200);
  }
});
