/**
 * `isobudget import inspect BASELINE CANDIDATE`: two inspect logs (one per model, as
 * `inspect eval --model a,b` writes them) as one run. A log is a `.eval` ZIP (`header.json`,
 * `samples/<id>_epoch_<n>.json`, as inspect_ai's EvalRecorder writes it) or the JSON dump.
 */
import { IsobudgetError } from '../../core/errors.js';
import { sha256 } from '../../core/hash.js';
import { decodeUtf8, MAX_DATA_FILE_BYTES, readInputFileSync } from '../../core/input-file.js';
import { buildImportedRun, type ImportedRun } from '../imported-run.js';
import { isObject, objectAt } from '../json-fields.js';
import { parseToolJson } from '../read-json-file.js';
import { mapInspect, samplesAt, type InspectLog } from './map-inspect.js';
import { readZipMember, zipMembers } from './zip-reader.js';

const ZIP_MAGIC = 0x04034b50;

export async function importInspect(baselineFile: string, candidateFile: string, runId: string, options: { scorer?: string | undefined }, now: Date): Promise<ImportedRun> {
  const baselineLog = readInspectLog(baselineFile);
  const candidateLog = readInspectLog(candidateFile);
  const baseline = mapInspect(baselineLog.log, baselineFile, 'baseline', options);
  const candidate = mapInspect(candidateLog.log, candidateFile, 'candidate', options);
  if (baseline.task !== candidate.task) {
    throw new IsobudgetError('import_mismatch', `the logs ran different tasks (${baseline.task} vs ${candidate.task})`, { location: { file: candidateFile, key: 'eval.task' }, hint: 'compare two models on the same task' });
  }
  const ids = (v: typeof baseline) => v.model;
  const sameModel = baseline.model === candidate.model;
  return buildImportedRun(runId, {
    tool: 'inspect', toolVersion: baseline.version, file: baselineFile, sha256: sha256(Buffer.concat([Buffer.from(baselineLog.sha256), Buffer.from(candidateLog.sha256)])),
    evalId: [baseline.evalId, candidate.evalId].filter(Boolean).join('+') || undefined, createdAt: baseline.createdAt,
    experiment: baseline.task,
    baseline: { id: sameModel ? `${ids(baseline)}#${baseline.evalId ?? 'baseline'}` : ids(baseline), model: baseline.model, prompt: '' },
    candidate: { id: sameModel ? `${ids(candidate)}#${candidate.evalId ?? 'candidate'}` : ids(candidate), model: candidate.model, prompt: '' },
    scorer: baseline.scorer,
  }, [...baseline.samples, ...candidate.samples], now);
}

export function readInspectLog(file: string): { log: InspectLog; sha256: string } {
  const bytes = readInputFileSync(file, { what: 'inspect log', code: 'import', maxBytes: MAX_DATA_FILE_BYTES });
  const hash = sha256(bytes);
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === ZIP_MAGIC) return { log: readEvalZip(bytes, file), sha256: hash };
  const json = objectAt(parseToolJson(decodeUtf8(bytes, file, { what: 'inspect log', code: 'import' }), file, 'inspect log'), file, '', 'pass an inspect log: LOG.eval or LOG.json');
  const { samples, ...header } = json;
  return { log: { header, samples: samplesAt(samples, file) }, sha256: hash };
}

function readEvalZip(bytes: Buffer, file: string): InspectLog {
  const members = zipMembers(bytes, file);
  // The archive may inflate to at most 4× the data-file limit: a bound, not a guess at real sizes.
  const budget = { left: 4 * MAX_DATA_FILE_BYTES };
  const json = (name: string): unknown => {
    const member = members.find((m) => m.name === name);
    return member === undefined ? undefined : parseToolJson(readZipMember(bytes, member, file, budget).toString('utf8'), `${file}!${name}`, 'inspect log member');
  };
  // header.json: the whole EvalLog but its samples. Older .eval files: start.json + results.json.
  const header = json('header.json') ?? { ...asObject(json('_journal/start.json') ?? json('start.json')), ...asObject(json('results.json')) };
  if (!isObject(header) || header.eval === undefined) throw new IsobudgetError('import_shape', 'the .eval archive has no header.json (nor _journal/start.json)', { location: { file }, hint: 'pass a log inspect_ai wrote (LOG.eval), or its JSON dump' });
  const samples = members
    .filter((m) => /^samples\/.+\.json$/.test(m.name))
    .map((m) => objectAt(json(m.name), `${file}!${m.name}`, '', 'a sample of an inspect log'));
  return { header, samples };
}

function asObject(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}
