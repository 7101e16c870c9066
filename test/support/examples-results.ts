/** examples/results.json: what `npm run examples:table` measured; fresh example runs must reproduce it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExampleFigures, ExamplesResults } from '../../src/report/examples-table.js';

export const EXAMPLES_DIR = join(import.meta.dirname, '..', '..', 'examples');

export function committedResults(): ExamplesResults {
  return JSON.parse(readFileSync(join(EXAMPLES_DIR, 'results.json'), 'utf8')) as ExamplesResults;
}

export function committedFigures(example: string): ExampleFigures | undefined {
  return committedResults().examples.find((f) => f.example === example);
}
