/** Calibration of the verdict by simulation (DESIGN §11): re-exports only. */
export { calibrate, type CalibrationInput, type CalibrationReport } from './calibrate.js';
export { closedFormCases, type ClosedFormCases, type ClosedFormInput } from './closed-form.js';
export { betaShapes, betaVariate, drawLatentCases, gammaVariate, shiftProbability, summarizePopulation, type LatentCase, type Population, type PopulationSummary } from './latent.js';
export { searchCasesForPower, type PowerSearchInput, type PowerSearchResult } from './power-search.js';
export { renderCalibration, type RenderContext } from './render.js';
export { experimentSeeds, simulateScenario, type ScenarioInput, type ScenarioResult } from './simulate.js';
export { syntheticResults, type ArmModel, type StreamSeeds } from './synthetic-results.js';
export { calibrateSequential, type SequentialCalibrationInput, type SequentialCalibrationReport, type SequentialCell } from './sequential-calibrate.js';
export { renderSequentialCalibration, type SequentialRenderContext } from './render-sequential.js';
