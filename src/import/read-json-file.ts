/** Another tool's JSON file: a regular UTF-8 file of bounded size, parsed, with its sha256. */
import { IsobudgetError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import { decodeUtf8, MAX_DATA_FILE_BYTES, readInputFileSync } from '../core/input-file.js';
import { jsonErrorText } from '../core/json-error.js';

export function readToolJson(file: string, what: string): { json: unknown; sha256: string; bytes: Buffer } {
  const bytes = readInputFileSync(file, { what, code: 'import', maxBytes: MAX_DATA_FILE_BYTES });
  return { json: parseToolJson(decodeUtf8(bytes, file, { what, code: 'import' }), file, what), sha256: sha256(bytes), bytes };
}

export function parseToolJson(body: string, file: string, what: string): unknown {
  try {
    return JSON.parse(body);
  } catch (error) {
    throw new IsobudgetError('import_parse', `${what} is not valid JSON: ${jsonErrorText(error, false)}`, { location: { file } });
  }
}
