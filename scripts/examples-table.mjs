#!/usr/bin/env node
/**
 * Runs every shipped example on the simulator and writes what they produce: the figures to
 * examples/results.json, and the table of examples/README.md (between its markers) from them.
 * The example tests compare fresh runs with results.json, and the README table with it.
 *
 *   npm run build && node scripts/examples-table.mjs            # run, then write both files
 *   node scripts/examples-table.mjs --check                      # run, exit 1 if either would change
 *   node scripts/examples-table.mjs --render                     # only re-render the README from the JSON
 *   node scripts/examples-table.mjs --only date-parser,null      # run some, keep the others' figures
 *
 * Uses dist/ (build first). Examples run one after another with the simulator's real waits,
 * as `isobudget run` does (a few minutes in all; verbose-judge makes ~3,600 judge calls).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const EXAMPLES = join(ROOT, 'examples');
const JSON_FILE = join(EXAMPLES, 'results.json');
const README = join(EXAMPLES, 'README.md');

/** The examples in the table, in its order; the descriptions are its second column. A new example goes here. */
const DESCRIPTIONS = {
  'date-parser': 'v3 adds rules for three date formats v2 lacks',
  'search-leak': 'v2 tells the model to diversify attempts',
  'verbose-judge': 'v2 asks for thorough explanations; graded by a length-biased LLM judge',
  'tool-loop': 'v2 re-checks every lookup and retries failures (agent executor)',
  null: 'nothing: the same skill under a new id',
};

const { runExperiment, verdictForRun } = await import(join(ROOT, 'dist', 'index.js'));
const { exampleFigures, renderExamplesTable, replaceGeneratedTable } = await import(join(ROOT, 'dist', 'report', 'examples-table.js'));

const args = process.argv.slice(2);
const check = args.includes('--check');
const renderOnly = args.includes('--render');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? new Set((args[onlyIndex + 1] ?? '').split(',').filter(Boolean)) : undefined;

const committed = JSON.parse(readFileSync(JSON_FILE, 'utf8'));
const byName = new Map(committed.examples.map((f) => [f.example, f]));

if (!renderOnly) {
  for (const name of Object.keys(DESCRIPTIONS)) {
    if (only && !only.has(name)) continue;
    const out = mkdtempSync(join(tmpdir(), `isobudget-examples-table-${name}-`));
    const started = Date.now();
    try {
      const run = await runExperiment({ configPath: join(EXAMPLES, name, 'experiment.yaml'), outDir: out, env: {}, keepResults: false });
      const figures = exampleFigures(name, verdictForRun(run.runDir));
      byName.set(name, figures);
      process.stderr.write(`${name}: ${figures.verdict}, A ${figures.a} → B ${figures.b}, C ${figures.c} → D ${figures.d} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
}

const results = {
  generated_by: 'npm run examples:table — every example run on the simulator with its own seed, val split',
  descriptions: DESCRIPTIONS,
  examples: Object.keys(DESCRIPTIONS).map((name) => byName.get(name)).filter(Boolean),
};
const json = `${JSON.stringify(results, null, 2)}\n`;
const readme = replaceGeneratedTable(readFileSync(README, 'utf8'), renderExamplesTable(results));

if (check) {
  const stale = [[JSON_FILE, json], [README, readme]].filter(([file, text]) => readFileSync(file, 'utf8') !== text).map(([file]) => file);
  if (stale.length) {
    process.stderr.write(`stale: ${stale.join(', ')} — run \`npm run examples:table\` and commit the result\n`);
    process.exit(1);
  }
  process.stderr.write(renderOnly ? 'the README table matches examples/results.json\n' : 'examples/results.json and the README table match fresh runs\n');
} else {
  writeFileSync(JSON_FILE, json);
  writeFileSync(README, readme);
  process.stderr.write(`wrote ${JSON_FILE} and the table in ${README}\n`);
}
