/** A closed interval [lower, upper] on the scale of the statistic it bounds. */
export type Interval = readonly [lower: number, upper: number];
