/** The four append-only files of a run's ledger (their paths): what the writer appends to and a run dir lays out. */
export interface LedgerFiles {
  calls: string;
  results: string;
  interrupted: string;
  /** call-intents.jsonl: one line per call started and not yet accounted for. */
  intents: string;
}
