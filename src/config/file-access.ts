/** The only file-system access config validation needs, isolated so `parseConfigText` stays testable. */
import { readFileSync, statSync } from 'node:fs';

export interface ConfigFileAccess {
  /** Text of a file, or undefined when it does not exist or is not a regular file. */
  readText(absolutePath: string): string | undefined;
  isFile(absolutePath: string): boolean;
}

export const nodeFileAccess: ConfigFileAccess = {
  readText(absolutePath) {
    return nodeFileAccess.isFile(absolutePath) ? readFileSync(absolutePath, 'utf8') : undefined;
  },
  isFile(absolutePath) {
    try {
      return statSync(absolutePath).isFile();
    } catch {
      return false;
    }
  },
};
