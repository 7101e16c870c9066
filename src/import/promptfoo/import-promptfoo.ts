/** `isobudget import promptfoo results.json`: read, map, build the run (writing is the caller's). */
import { buildImportedRun, type ImportedRun } from '../imported-run.js';
import { readToolJson } from '../read-json-file.js';
import { mapPromptfoo } from './map-promptfoo.js';

export function importPromptfoo(file: string, runId: string, pick: { baseline?: string | undefined; candidate?: string | undefined }, now: Date): ImportedRun {
  const { json, sha256 } = readToolJson(file, 'promptfoo results file');
  const mapped = mapPromptfoo(json, file, pick);
  const variant = (c: typeof mapped.baseline) => ({ id: c.label === mapped.candidate.label && c.label === mapped.baseline.label ? `${c.provider}/${c.label}` : c.label, model: c.provider, prompt: c.raw });
  const same = mapped.baseline.label === mapped.candidate.label;
  return buildImportedRun(runId, {
    tool: 'promptfoo', toolVersion: mapped.version, file, sha256, evalId: mapped.evalId, createdAt: mapped.createdAt,
    experiment: mapped.description ?? mapped.evalId ?? 'promptfoo eval',
    // Two prompts on one provider: the prompt labels are the variants; one prompt on two providers: the providers.
    baseline: same ? { ...variant(mapped.baseline), id: mapped.baseline.provider } : variant(mapped.baseline),
    candidate: same ? { ...variant(mapped.candidate), id: mapped.candidate.provider } : variant(mapped.candidate),
    scorer: mapped.assertions.length > 0 ? mapped.assertions.join('+') : 'assertions',
  }, mapped.samples, now);
}
