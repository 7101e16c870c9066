/**
 * Which published billing rules apply to a model, from its name alone, pure. Routers prefix
 * names (`openai/gpt-4o-mini`, `anthropic/claude-sonnet-4`) and vendors suffix dates
 * (`gpt-4o-2024-08-06`, `claude-sonnet-4-20250514`), so the name is matched on its last path
 * segment, lower-cased. A name that matches nothing is `unknown`: every table then applies at
 * its maximum (the estimator never guesses which vendor bills it).
 */

/** Families whose image and tool rules differ (see image-tables.ts, published-overheads.ts). */
export type ModelFamily =
  | 'gpt-4o-mini'
  | 'openai-tiles'
  | 'openai-o-tiles'
  | 'gpt-4.1-mini'
  | 'gpt-4.1-nano'
  | 'o4-mini'
  | 'openai-text'
  | 'claude'
  | 'unknown';

/** Families that bill text with OpenAI's published tokenizer (o200k_base): our count is theirs. */
const O200K_FAMILIES: ReadonlySet<ModelFamily> = new Set([
  'gpt-4o-mini',
  'openai-tiles',
  'openai-o-tiles',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'o4-mini',
  'openai-text',
]);

const RULES: ReadonlyArray<readonly [RegExp, ModelFamily]> = [
  [/^(?:chatgpt-)?gpt-4o-mini/, 'gpt-4o-mini'],
  [/^gpt-(?:4\.1|5)-mini/, 'gpt-4.1-mini'],
  [/^gpt-(?:4\.1|5)-nano/, 'gpt-4.1-nano'],
  [/^o4-mini/, 'o4-mini'],
  [/^(?:chatgpt-4o|gpt-4o|gpt-4\.1|gpt-4\.5|gpt-4-turbo|gpt-4-vision)/, 'openai-tiles'],
  [/^o(?:1|3)(?!-mini)/, 'openai-o-tiles'],
  // o200k text, but no image table we can cite (o3-mini and o1-mini take no images; gpt-5's
  // table is not one we could confirm): images are reserved at the maximum across tables.
  [/^(?:o(?:1|3)-mini|gpt-5)/, 'openai-text'],
  [/^claude-/, 'claude'],
];

/** Names already matched (a gateway asks for the same few names on every call); bounded, cleared when full. */
const KNOWN = new Map<string, ModelFamily>();
const KNOWN_LIMIT = 1024;

export function modelFamily(model: string | undefined): ModelFamily {
  if (model === undefined) return 'unknown';
  const known = KNOWN.get(model);
  if (known !== undefined) return known;
  const family = matchFamily(model);
  if (KNOWN.size >= KNOWN_LIMIT) KNOWN.clear();
  KNOWN.set(model, family);
  return family;
}

function matchFamily(model: string): ModelFamily {
  const name = (model.split('/').pop() ?? '').toLowerCase();
  for (const [pattern, family] of RULES) if (pattern.test(name)) return family;
  return 'unknown';
}

/** True when the model bills text with o200k_base, so our count of its content is its count. */
export function billsWithO200k(family: ModelFamily): boolean {
  return O200K_FAMILIES.has(family);
}
