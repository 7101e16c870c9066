/** Hashes for the run manifest: two runs are only comparable on identical datasets. */
import type { EvalCase } from '../core/case.js';
import { sha256, stableStringify } from '../core/hash.js';
import { MAX_DATA_FILE_BYTES, readInputFile } from '../core/input-file.js';

/** sha256 (hex) of the file's bytes, exactly as on disk. */
export async function fileSha256(path: string): Promise<string> {
  return sha256(await readInputFile(path, { what: 'dataset file', code: 'dataset', maxBytes: MAX_DATA_FILE_BYTES }));
}

/** sha256 (hex) of the parsed cases' content (ids, inputs, answers…), independent of formatting and row position. */
export function datasetHash(cases: readonly EvalCase[]): string {
  return sha256(stableStringify(cases.map(({ source: _source, ...content }) => content)));
}
