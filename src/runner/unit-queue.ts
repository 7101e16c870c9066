/**
 * The order units are handed to the run's workers. A plain run hands out its plan; a
 * sequential run hands out whole cases in the seeded order and starts no new case once its
 * monitor has decided (cases in flight finish and are recorded).
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
 * Cases already started finish — every arm of them runs — so the ledger holds whole cases;
 * after the stop no new case starts (the regression set always runs: the verdict needs it).
 * `onStop` runs once, synchronously, when the commit that completes a deciding look arrives —
 * or at once when a resumed run's committed results had already decided.
 */
export function sequentialQueue(units: readonly Unit[], monitor: SequentialMonitor, onStop: (stop: SequentialStop) => void): UnitQueue {
  const ordered = sequentialUnitOrder(units, monitor.plan.order);
  const started = new Set(monitor.startedCases());
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
    next: () => {
      while (cursor < ordered.length) {
        const unit = ordered[cursor++] as Unit;
        const id = unit.evalCase.id;
        if (unit.split === 'regression' || monitor.stopped === undefined || started.has(id)) {
          if (unit.split !== 'regression') started.add(id);
          return unit;
        }
      }
      return undefined;
    },
    committed: (result) => {
      monitor.record(result);
      announce();
    },
  };
}
