/**
 * LLM-as-judge: a prompt that asks to grade/rate/score a response, with the response (and
 * optionally a reference) in labeled sections (`Response:` / `<response>…</response>`).
 * The judge checks the reference, errs at its profile's rate, and — like real judges —
 * likes longer answers: `judgeLengthBias` points (10-point scale) per doubling past 32 tokens.
 */
import { countTokens } from '../../../core/tokens.js';
import { accuracyFor } from '../profiles.js';
import type { SimTask, SolveContext } from './spec.js';

const ASKS_TO_JUDGE = /\b(?:grade|rate|score|judge|assess)\b/i;
const RESPONSE_LABEL = /^(?:response|answer|candidate(?: answer| response)?|model (?:answer|response)|output|completion)$/i;
const REFERENCE_LABEL = /^(?:reference(?: answer)?|expected(?: answer)?|gold(?: answer)?|correct answer)$/i;
const OTHER_LABEL = /^(?:question|task|prompt|input|rubric|criteria|instructions?)$/i;

export interface JudgeSections {
  response: string;
  reference: string | undefined;
}

/** Sections from XML-ish tags if present, else from `Label:` lines. */
export function readJudgeSections(text: string): JudgeSections | undefined {
  const tag = (name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'i').exec(text)?.[1]?.trim();
  const tagged = tag('response') ?? tag('answer') ?? tag('candidate');
  if (tagged !== undefined) return { response: tagged, reference: tag('reference') ?? tag('expected') };

  let current: 'response' | 'reference' | 'other' | undefined;
  const collected: Record<'response' | 'reference', string[]> = { response: [], reference: [] };
  let sawResponse = false;
  for (const line of text.split('\n')) {
    const label = /^\s*([A-Za-z' ]{2,30}?)\s*:\s?(.*)$/.exec(line);
    const name = label?.[1]?.trim() ?? '';
    // A response may itself contain "Answer: 42"; only a different section ends it.
    const isResponse = RESPONSE_LABEL.test(name) && current !== 'response';
    const next = isResponse ? 'response' : REFERENCE_LABEL.test(name) ? 'reference' : OTHER_LABEL.test(name) ? 'other' : undefined;
    if (label && next) {
      current = next;
      if (next === 'response') sawResponse = true;
      if (next !== 'other') collected[next].push(label[2] ?? '');
    } else if (current === 'response' || current === 'reference') {
      collected[current].push(line);
    }
  }
  if (!sawResponse) return undefined;
  const reference = collected.reference.join('\n').trim();
  return { response: collected.response.join('\n').trim(), reference: reference === '' ? undefined : reference };
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** How good a judged response looks to this judge: reference agreement, errors, length bias. */
function judgedQuality(context: SolveContext, sections: JudgeSections, label: string): { quality: number; matches: boolean | undefined; doublings: number } {
  const matches = sections.reference === undefined ? undefined : normalize(sections.response).includes(normalize(sections.reference));
  let quality = matches === undefined ? 0.6 : matches ? 0.8 : 0.3;
  if (context.draw(`competence:${label}`) >= accuracyFor(context.profile, 'judge')) quality = 1 - quality;
  const doublings = Math.max(0, Math.log2(Math.max(1, countTokens(sections.response)) / 32));
  quality = Math.min(1, Math.max(0, quality + (context.profile.judgeLengthBias / 10) * doublings));
  return { quality, matches, doublings };
}

/** `Candidates:` followed by `[1] …`, `[2] …` blocks: a Best-of-N selection request. */
function readCandidates(text: string): string[] | undefined {
  const at = text.indexOf('Candidates:');
  if (at === -1) return undefined;
  const parts = text.slice(at + 'Candidates:'.length).split(/^\[(\d+)\]\s*$/m);
  const candidates: string[] = [];
  for (let i = 1; i + 1 < parts.length; i += 2) candidates.push((parts[i + 1] ?? '').replace(/\n\nReply with[\s\S]*$/, '').trim());
  return candidates.length > 0 ? candidates : undefined;
}

const DIMENSIONS = ['correctness', 'conciseness', 'format', 'tone', 'budget_friendliness'] as const;

export const judgeTask: SimTask = {
  name: 'judge',
  solve(context: SolveContext): string | undefined {
    const prompt = `${context.skill}\n${context.userText}`;
    const candidates = readCandidates(context.userText);
    if (candidates && /\bbest\b/i.test(prompt)) {
      // Selection: score every candidate as a grade would, pick the highest (ties → first).
      let best = 0;
      let bestQuality = -1;
      candidates.forEach((response, i) => {
        const { quality } = judgedQuality(context, { response, reference: undefined }, `pick:${i}`);
        if (quality > bestQuality) [best, bestQuality] = [i, quality];
      });
      return String(best + 1);
    }
    if (!ASKS_TO_JUDGE.test(prompt)) return undefined;
    const sections = readJudgeSections(context.userText) ?? readJudgeSections(prompt);
    if (!sections) return undefined;
    const { quality, matches, doublings } = judgedQuality(context, sections, 'grade');
    const reason = matches === undefined ? 'No reference was given; judged on plausibility.'
      : matches ? 'The response agrees with the reference answer.' : 'The response does not contain the reference answer.';
    const asked = DIMENSIONS.filter((d) => prompt.includes(`"${d}"`));
    if (asked.length > 1) {
      // Per-dimension grades: length lifts correctness (the bias) but costs conciseness.
      const terse = Math.max(0, 1 - 0.2 * doublings);
      const values: Record<string, number | string> = {};
      for (const d of asked) values[d] = Math.round((d === 'correctness' ? quality : d === 'conciseness' || d === 'budget_friendliness' ? terse : 0.8) * 100) / 100;
      values.rationale = reason;
      return JSON.stringify(values);
    }
    if (/\bPASS\b[\s\S]*\bFAIL\b/.test(prompt)) return quality >= 0.5 ? 'PASS' : 'FAIL';
    const score = /\b0\s*(?:-|–|to)\s*1\b/.test(prompt) ? Math.round(quality * 100) / 100
      : /\b1\s*(?:-|–|to)\s*5\b/.test(prompt) ? Math.round(1 + 4 * quality) : Math.round(1 + 9 * quality);
    if (/\bJSON\b/.test(prompt)) return JSON.stringify({ score, reason });
    return `Score: ${score}\nReason: ${reason}`;
  },
};
