import type { KeyPath } from './key-path.js';
import type { Anchor } from './yaml-source.js';

/** One thing wrong with a config, before it is given a file position. */
export interface ConfigProblem {
  code: string;
  path: KeyPath;
  message: string;
  /** How to fix it. */
  hint: string;
  /** What the position should point at (missing keys point at their parent). */
  anchor: Anchor;
}
