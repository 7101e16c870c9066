import type { ChatMessage } from './messages.js';

/** One eval item, as loaded from a JSONL dataset row. */
export interface EvalCase {
  id: string;
  /** The user input; for `messages` rows, the last user message's content. */
  input: string;
  /** Full conversation when the row gave `messages` instead of `input`. */
  messages: ChatMessage[] | undefined;
  /** What a deterministic scorer compares against (`expected` or `reference`). */
  expected: unknown;
  /** Free-text reference for judges, when the row had one distinct from `expected`. */
  reference: string | undefined;
  category: string | undefined;
  tags: string[];
  /** Cluster key for clustered standard errors (Miller 2024), e.g. a source document. */
  cluster: string | undefined;
  /** Anything else the row carried, for scorers that need it. */
  metadata: Record<string, unknown>;
  /** Where the row came from, for error messages. */
  source: { file: string; line: number };
}
