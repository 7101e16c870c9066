/** The only file-system access config validation needs, isolated so `parseConfigText` stays testable. */
import { statSync } from 'node:fs';
import { IsobudgetError } from '../core/errors.js';
import { decodeUtf8, MAX_SMALL_FILE_BYTES, readInputFileSync } from '../core/input-file.js';

export interface ConfigFileAccess {
  /**
   * Text of a file, or undefined when it does not exist. A path that is not a regular file,
   * is too large or is not UTF-8 throws an IsobudgetError naming it.
   */
  readText(absolutePath: string): string | undefined;
  isFile(absolutePath: string): boolean;
}

export const nodeFileAccess: ConfigFileAccess = {
  readText(absolutePath) {
    const options = { what: 'file', code: 'config_file', maxBytes: MAX_SMALL_FILE_BYTES };
    try {
      return decodeUtf8(readInputFileSync(absolutePath, options), absolutePath, options);
    } catch (error) {
      if (error instanceof IsobudgetError && error.code === 'config_file_not_found') return undefined;
      throw error;
    }
  },
  isFile(absolutePath) {
    try {
      return statSync(absolutePath).isFile();
    } catch {
      return false;
    }
  },
};
