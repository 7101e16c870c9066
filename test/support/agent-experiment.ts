/**
 * Writes a throwaway agent experiment: stock questions, a tools module (a working lookup and
 * lookups that throw or hang), a command tool, two skills — the baseline looks up once, the
 * candidate double-checks and retries — and the YAML around them.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const STOCK: Record<string, number> = {
  'K-1001': 12, 'K-1002': 40, 'M-2003': 7, 'M-2004': 93, 'P-3005': 150, 'P-3006': 0, 'R-4007': 61, 'R-4008': 18, 'T-5009': 250, 'T-5010': 33,
};

const TOOLS_MODULE = `
const STOCK = ${JSON.stringify(STOCK)};
export function lookup(args) {
  const item = typeof args?.item === 'string' ? args.item : '';
  if (!/^[A-Z]-\\d{4}$/.test(item)) throw new Error('unknown item id ' + JSON.stringify(item) + ': ids look like K-1234');
  if (!(item in STOCK)) throw new Error('no item ' + item);
  return { item, stock: STOCK[item] };
}
export function broken() { throw new Error('inventory database is down'); }
export function hang() { return new Promise(() => {}); }
export default lookup;
`;

const COMMAND_TOOL = `
const args = JSON.parse(process.argv.at(-1));
const STOCK = ${JSON.stringify(STOCK)};
if (process.env.SLEEP_FOREVER || args.item === 'HANG') setInterval(() => {}, 1000);
else if (args.item in STOCK) process.stdout.write(JSON.stringify({ item: args.item, stock: STOCK[args.item] }) + '\\n');
else { process.stderr.write('unknown item ' + args.item + '\\n'); process.exit(3); }
`;

export const SKILLS = {
  baseline: 'Use the lookup tool for every item the question names, one call each, in one turn. Look each item up once. If a lookup comes back with an error, read it and correct the arguments. End with "Answer: <total>".',
  candidate: 'Use the lookup tool for every item the question names, one call each, in one turn. Double-check every lookup by repeating it. If a lookup fails, retry the same call once, then correct the arguments. End with "Answer: <total>".',
};

export function stockCases(count: number): string {
  const items = Object.keys(STOCK);
  const rows = Array.from({ length: count }, (_, i) => {
    const picked = [items[i % items.length], items[(i * 3 + 1) % items.length], items[(i * 7 + 2) % items.length]].slice(0, 1 + (i % 3)) as string[];
    const unique = [...new Set(picked)];
    const total = unique.reduce((sum, item) => sum + (STOCK[item] ?? 0), 0);
    const input = unique.length === 1 ? `How many units of ${unique[0]} are in stock?` : `How many units of ${unique.join(' and ')} are in stock in total?`;
    return JSON.stringify({ id: `s${i + 1}`, input, expected: String(total), category: `${unique.length}-items` });
  });
  return `${rows.join('\n')}\n`;
}

export interface AgentExperimentSpec {
  provider: string;
  budget?: string;
  cases?: number;
  /** The `tools:` list as YAML flow items (default: the working module lookup). */
  tools?: string[];
  maxTurns?: number;
  toolTimeoutMs?: number;
  extra?: string;
}

export const LOOKUP_PARAMETERS = '{ type: object, properties: { item: { type: string } }, required: [item] }';
export const moduleLookup = (exportName?: string): string =>
  `{ name: lookup, description: Stock of one item, parameters: ${LOOKUP_PARAMETERS}, module: ./tools.mjs${exportName ? `, export: ${exportName}` : ''} }`;
export const commandLookup = (): string => `{ name: lookup, description: Stock of one item, parameters: ${LOOKUP_PARAMETERS}, command: [node, ./stock-command.mjs] }`;

export function writeAgentExperiment(spec: AgentExperimentSpec): { dir: string; configPath: string; runsDir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-agent-'));
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'data', 'val.jsonl'), stockCases(spec.cases ?? 9));
  writeFileSync(join(dir, 'tools.mjs'), TOOLS_MODULE);
  writeFileSync(join(dir, 'stock-command.mjs'), COMMAND_TOOL);
  const yaml = [
    'experiment: agent-e2e',
    `provider: ${spec.provider}`,
    'variants:',
    `  baseline: { id: stock-v1, model: sim-small, system_prompt: '${SKILLS.baseline}' }`,
    `  candidate: { id: stock-v2, model: sim-small, system_prompt: '${SKILLS.candidate}' }`,
    `budget: ${spec.budget ?? '{ total_tokens_per_case: 6000, per_case_max_tokens: 256, best_of_n: [1, 2] }'}`,
    'datasets: { val: data/val.jsonl }',
    'executor:',
    '  type: agent',
    `  max_turns: ${spec.maxTurns ?? 8}`,
    `  tool_timeout_ms: ${spec.toolTimeoutMs ?? 5000}`,
    '  tools:',
    ...(spec.tools ?? [moduleLookup()]).map((tool) => `    - ${tool}`),
    'scorer: numeric',
    'selector: majority',
    'seed: 11',
    'concurrency: 8',
    'retries: { max_attempts: 3, initial_delay_ms: 5, max_delay_ms: 20 }',
    spec.extra ?? '',
  ].join('\n');
  const configPath = join(dir, 'experiment.yaml');
  writeFileSync(configPath, `${yaml}\n`);
  return { dir, configPath, runsDir: join(dir, 'runs') };
}
