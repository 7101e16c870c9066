/**
 * What each Responses-API response this gateway relayed billed (input + output), by response
 * id: a request that continues one (`previous_response_id`) carries that much input again,
 * at least. Bounded (oldest dropped) and in memory: after a restart, continuations of older
 * responses are refused on budgeted keys rather than guessed.
 */
const LIMIT = 100_000;

export class ResponseBills {
  private readonly bills = new Map<string, number>();

  record(id: string, billed: number): void {
    if (this.bills.size >= LIMIT) this.bills.delete(this.bills.keys().next().value as string);
    this.bills.set(id, billed);
  }

  billed(id: string): number | undefined {
    return this.bills.get(id);
  }
}
