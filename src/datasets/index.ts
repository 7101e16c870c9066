export { datasetHash, fileSha256 } from './hash.js';
export { fieldsOf, inputHashId, loadDataset, loadDatasetFile, parseDataset, parseDatasetText, type DatasetSplit, type LoadDatasetOptions, type ParsedDataset } from './load.js';
export type { DatasetFields } from './fields.js';
export { parseRow, type RowContext } from './row.js';
export { assertNoOverlap, checkSplitOverlap, normalizedInput, type AssertNoOverlapOptions, type LeakSide, type SplitLeak, type SplitsInput } from './splits.js';
