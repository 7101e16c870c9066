export { datasetHash, fileSha256 } from './hash.js';
export { loadDataset, loadDatasetFile, parseDatasetText, type DatasetSplit, type LoadDatasetOptions } from './load.js';
export { parseRow, type RowContext } from './row.js';
export { assertNoOverlap, checkSplitOverlap, normalizedInput, type AssertNoOverlapOptions, type LeakSide, type SplitLeak, type SplitsInput } from './splits.js';
