/**
 * `--pricing FILE`: a YAML (or JSON) mapping of model → prices, the same shape as the
 * experiment's `pricing:` block. Every problem is reported at once with file, line and key.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { IsobudgetError, IsobudgetErrors } from '../core/errors.js';
import type { ModelPrice } from '../pricing/price-table.js';
import { problemsFromIssues } from './issues.js';
import { formatKeyPath } from './key-path.js';
import { normalizePricing } from './normalize-pricing.js';
import { PRICING_HELP, pricingSchema } from './pricing-schema.js';
import { parseYamlSource } from './yaml-source.js';

export function loadPricingFile(path: string): Record<string, ModelPrice> {
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new IsobudgetError(missing ? 'pricing_not_found' : 'pricing_unreadable', missing ? 'pricing file not found' : `cannot read the pricing file: ${(error as Error).message}`, { location: { file }, hint: PRICING_HELP });
  }
  const source = parseYamlSource(text);
  if (source.problems.length > 0) {
    const first = source.problems[0];
    throw new IsobudgetError('pricing_yaml_syntax', `YAML syntax error: ${first?.message ?? ''}`, { location: { file, line: first?.position.line ?? 1, column: first?.position.column ?? 1 }, hint: 'fix the YAML (JSON works too) at this position' });
  }
  if (source.data === null || typeof source.data !== 'object' || Array.isArray(source.data)) {
    throw new IsobudgetError('pricing_not_mapping', 'the pricing file must be a mapping of model name → prices', { location: { file, line: 1, column: 1 }, hint: PRICING_HELP });
  }
  const parsed = pricingSchema.safeParse(source.data);
  if (!parsed.success) {
    throw new IsobudgetErrors(problemsFromIssues(parsed.error.issues, pricingSchema, source.data).map((p) => {
      const position = source.locate(p.path, p.anchor);
      return new IsobudgetError(p.code, p.message, { location: { file, line: position.line, column: position.column, key: formatKeyPath(p.path) }, hint: p.hint });
    }));
  }
  return normalizePricing(parsed.data);
}
