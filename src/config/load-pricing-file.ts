/**
 * `--pricing FILE`: a YAML (or JSON) mapping of model → prices, the same shape as the
 * experiment's `pricing:` block. Every problem is reported at once with file, line and key.
 */
import { resolve } from 'node:path';
import { IsobudgetError, IsobudgetErrors } from '../core/errors.js';
import { MAX_SMALL_FILE_BYTES, readInputTextSync } from '../core/input-file.js';
import type { ModelPrice } from '../pricing/price-table.js';
import { problemsFromIssues } from './issues.js';
import { formatKeyPath } from './key-path.js';
import { normalizePricing } from './normalize-pricing.js';
import { PRICING_HELP, pricingSchema } from './pricing-schema.js';
import { parseYamlSource } from './yaml-source.js';

export function loadPricingFile(path: string): Record<string, ModelPrice> {
  const file = resolve(path);
  // A regular UTF-8 file only: a FIFO named by --pricing used to block the process for good.
  const text = readInputTextSync(file, { what: 'pricing file', code: 'pricing', maxBytes: MAX_SMALL_FILE_BYTES, notFoundHint: PRICING_HELP });
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
