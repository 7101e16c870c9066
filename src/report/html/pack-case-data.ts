/**
 * The case data travels gzip-compressed and base64-encoded inside the page: model outputs
 * compress several-fold, so a 5,000-case run keeps its outputs (cut only when very long) and
 * still opens fast; the browser inflates it with the native DecompressionStream. Base64 has no
 * character that HTML treats specially, so nothing in the data can end its element.
 *
 * If the packed data would still be too large (incompressible outputs), the output budget is
 * halved until it fits: the file stays under its size limit whatever the outputs are.
 */
import { gzipSync } from 'node:zlib';
import type { ResultRecord } from '../../ledger/records.js';
import { caseBrowserData, type CaseBrowserData, type CaseText } from './case-data.js';

export interface PackedCases {
  data: CaseBrowserData;
  /** gzip(JSON) in base64. */
  payload: string;
}

export interface PackOptions {
  /** Characters of model output before compression (default 24,000,000). */
  outputBudget?: number;
  /** One output's cap in characters (default 8,000). */
  maxOutput?: number;
  /** `scorer.output_field` of the run (see CaseDataOptions). */
  outputField?: string | undefined;
  /** Largest payload in bytes (default 11,000,000: the page stays under 15 MB with charts). */
  maxPayload?: number;
}

const FLOOR = 200_000;

export function packCases(results: readonly ResultRecord[], texts: ReadonlyMap<string, CaseText>, options: PackOptions = {}): PackedCases {
  const maxPayload = options.maxPayload ?? 11_000_000;
  let budget = options.outputBudget ?? 24_000_000;
  for (;;) {
    const data = caseBrowserData(results, texts, { outputBudget: budget, maxOutput: options.maxOutput ?? 8_000, outputField: options.outputField });
    const payload = gzipSync(JSON.stringify(data), { level: 6 }).toString('base64');
    if (payload.length <= maxPayload || budget <= FLOOR) return { data, payload };
    budget = Math.max(FLOOR, Math.floor(budget / 2));
  }
}
