/** The embedded simulator: engine, in-process provider and HTTP server. */
export { simulate, pathIndependence, type SimRequest, type SimOptions, type SimResult, type SimChoice } from './engine.js';
export { createSimProvider, type SimProviderOptions } from './provider.js';
export { startSimServer, type SimServer, type SimServerOptions, type SimServerStats } from './server.js';
export type { FaultKind, FaultOptions } from './http/faults.js';
export { parseSseText } from './http/sse-parse.js';
export type { SseEvent } from './http/route.js';
export { getProfile, SIM_MODEL_NAMES, type ModelProfile, type LatencyProfile } from './profiles.js';
