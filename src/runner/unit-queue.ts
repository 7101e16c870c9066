/**
 * The order units are handed to the run's workers. A plain run hands out its plan; a
 * sequential run hands out whole cases in the seeded order and stops handing out new ones
 * once its monitor has decided (units already taken finish and are recorded).
 */
import type { ResultRecord } from '../ledger/records.js';
import type { Unit } from './plan.js';
import type { SequentialMonitor, SequentialStop } from './sequential-monitor.js';
import { sequentialUnitOrder } from './sequential-plan.js';

export interface UnitQueue {
  /** The next unit to run, or undefined when there is none to start. */
  next(): Unit | undefined;
  /** A unit's result is in the ledger. */
  committed(result: ResultRecord): void;
}

export function planQueue(units: readonly Unit[]): UnitQueue {
  let cursor = 0;
  return {
    next: () => units[cursor++],
    committed: () => {},
  };
}

/**
 * `onStop` runs once, synchronously, when the commit that completes a deciding look arrives —
 * or at once when a resumed run's committed results had already decided.
 */
export function sequentialQueue(units: readonly Unit[], monitor: SequentialMonitor, onStop: (stop: SequentialStop) => void): UnitQueue {
  const ordered = sequentialUnitOrder(units, monitor.plan.order);
  let cursor = 0;
  let announced = false;
  const announce = (): void => {
    const stop = monitor.stopped;
    if (stop && !announced) {
      announced = true;
      onStop(stop);
    }
  };
  announce();
  return {
    next: () => (monitor.stopped === undefined ? ordered[cursor++] : undefined),
    committed: (result) => {
      monitor.record(result);
      announce();
    },
  };
}
