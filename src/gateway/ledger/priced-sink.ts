/**
 * Costs every gateway record before it is written: `cost_usd` from the gateway's price
 * table (the dated defaults, or `--pricing FILE` over them), null when the model has no
 * price or the call no usage. A wrapper, so the proxy itself never deals in money.
 */
import { callCostUsd } from '../../pricing/call-cost.js';
import type { PriceTable } from '../../pricing/price-table.js';
import type { CallSink, GatewayCallRecord } from './gateway-record.js';

export function pricedSink(sink: CallSink, prices: PriceTable): CallSink {
  return {
    write(record: GatewayCallRecord): void {
      record.cost_usd = callCostUsd(record, prices);
      sink.write(record);
    },
    close: () => sink.close(),
  };
}
