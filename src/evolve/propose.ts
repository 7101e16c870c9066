/**
 * Steps 2–3 of a round: recall memory, ask the proposer for K diffs, check each, ask once
 * more with the reason for any that fails, and drop it if the repair fails too. The request
 * (messages and the checks' context: the negative patterns and earlier proposals as they
 * stood when the round began) is saved before the first call, so a resumed round makes the
 * same decisions about the same replies.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { ChatMessage } from '../core/messages.js';
import { writeJsonAtomic } from '../ledger/run-dir.js';
import { storePolicy } from '../memory/store/open.js';
import { bodyOf, checkProposal, type CheckContext, type CheckResult } from './check-proposal.js';
import type { LoopContext } from './context.js';
import { addedLines, directionWords } from './direction.js';
import { parseProposals, type ParsedProposal } from './parse-proposals.js';
import { askProposer } from './proposer-call.js';
import { proposerInputMarkdown, proposerMessages, repairText } from './proposer-input.js';
import { directionOf, recall } from './recall.js';
import type { Diagnosis, LineageEntry } from './types.js';
import { nextVersions } from './versions.js';

export interface Proposal {
  slot: number;
  /** The version this slot was asked to take. */
  version: string;
  summary: string;
  diff: string;
  repaired: boolean;
  check: CheckResult;
  /** Share of the proposer calls' tokens (the first call split over K slots, plus its own repair). */
  proposerTokens: number;
}

interface SavedDirection {
  label: string;
  lines: string[];
  body: string | undefined;
}

interface SavedRequest {
  messages: ChatMessage[];
  versions: string[];
  negatives: Array<{ memoryId: string; lines: string[] }>;
  earlier: SavedDirection[];
}

export async function proposeRound(context: LoopContext, round: number, incumbent: { version: string; text: string }, diagnosis: Diagnosis, lineage: readonly LineageEntry[]): Promise<Proposal[]> {
  const paths = context.paths.round(round);
  mkdirSync(paths.dir, { recursive: true });
  const request = existsSync(paths.proposerRequest) ? (JSON.parse(readFileSync(paths.proposerRequest, 'utf8')) as SavedRequest) : await newRequest(context, round, incumbent, diagnosis, lineage);
  const transcript: ChatMessage[] = [...request.messages];
  writeFileSync(paths.proposerInput, proposerInputMarkdown(transcript));
  const first = await askProposer(context, round, 'propose', request.messages);
  const parsed = parseProposals(first.text);
  const k = request.versions.length;
  const share = (slot: number): number => Math.floor(first.tokens / k) + (slot === 1 ? first.tokens % k : 0);
  const checks: Omit<CheckContext, 'expectedVersion'> = {
    skillName: context.skillName,
    incumbent,
    startTokens: context.start.tokens,
    maxGrowth: context.settings.maxSkillGrowth,
    heldOut: [{ split: 'val', cases: context.cases.val }, { split: 'test', cases: context.cases.test }, { split: 'regression', cases: context.cases.regression }],
    contaminationMinChars: 8,
    earlier: request.earlier.map((d) => ({ label: d.label, words: directionWords(d.lines), body: d.body })),
    negatives: request.negatives.map((n) => ({ memoryId: n.memoryId, words: directionWords(n.lines) })),
  };
  const proposals: Proposal[] = [];
  for (const [index, version] of request.versions.entries()) {
    const slot = index + 1;
    // Earlier slots of this round count as earlier proposals too.
    const slotChecks: CheckContext = { ...checks, expectedVersion: version, earlier: [...checks.earlier, ...proposals.filter((p) => p.check.ok).map(asEarlier(round))] };
    let proposal: ParsedProposal = parsed.find((p) => p.slot === slot) ?? { slot, summary: '', diff: undefined };
    let check = first.error ? failed(`the proposer call failed: ${first.error}`) : proposal.diff === undefined && proposal.summary === '' ? failed(`the reply has no proposal ${slot}`) : checkProposal(proposal, slotChecks);
    let tokens = share(slot);
    let repaired = false;
    if (!check.ok && !first.error) {
      const repairTurn = repairText({ slot, version, reason: check.reason, diff: proposal.diff, skillName: context.skillName });
      const messages: ChatMessage[] = [...request.messages, { role: 'assistant', content: first.text }, { role: 'user', content: repairTurn }];
      // The repair's input is the request, the proposer's reply and the repair turn.
      if (!transcript.some((m) => m.role === 'assistant')) transcript.push({ role: 'assistant', content: first.text });
      transcript.push({ role: 'user', content: `## Repair request (proposal ${slot})\n\n${repairTurn}` });
      writeFileSync(paths.proposerInput, proposerInputMarkdown(transcript));
      const again = await askProposer(context, round, `repair-${slot}`, messages);
      tokens += again.tokens;
      repaired = true;
      proposal = parseProposals(again.text).find((p) => p.slot === slot) ?? parseProposals(again.text)[0] ?? { slot, summary: proposal.summary, diff: undefined };
      check = again.error ? failed(`the repair call failed: ${again.error}`) : checkProposal(proposal, slotChecks);
    }
    if (check.ok) {
      mkdirSync(paths.candidates, { recursive: true });
      writeFileSync(`${paths.candidates}/v${check.version}.md`, check.text);
    }
    proposals.push({ slot, version, summary: proposal.summary, diff: proposal.diff ?? '', repaired, check, proposerTokens: tokens });
  }
  return proposals;
}

async function newRequest(context: LoopContext, round: number, incumbent: { version: string; text: string }, diagnosis: Diagnosis, lineage: readonly LineageEntry[]): Promise<SavedRequest> {
  const records = await context.store.listRecords();
  const remembered = recall(records, context.skillName, lineage, { now: context.now(), policy: await storePolicy(context.store) });
  const taken = [context.start.version, incumbent.version, ...lineage.map((e) => e.version).filter((v): v is string => v !== null)];
  const versions = nextVersions(taken, context.settings.candidatesPerRound);
  const messages = proposerMessages({
    skillName: context.skillName,
    incumbent,
    versions,
    maxTokens: Math.floor(context.settings.maxSkillGrowth * context.start.tokens),
    startTokens: context.start.tokens,
    maxGrowth: context.settings.maxSkillGrowth,
    recall: remembered,
    diagnosis,
  });
  const fromLineage: SavedDirection[] = lineage.filter((e) => e.diff !== '').map((e) => ({
    label: `round ${e.round} version ${e.version ?? '?'}`,
    lines: addedLines(e.diff),
    body: e.version === null || e.status === 'dropped' ? undefined : candidateBody(context, e.round, e.version),
  }));
  // Changes other loops screened for this skill (memory) are earlier proposals as well.
  const fromMemory: SavedDirection[] = records
    .filter((r) => r.skill?.name === context.skillName && r.type !== 'negative_pattern' && r.skill.baseline_text !== null && !lineage.some((e) => e.memory_id === r.memory_id))
    .map((r) => ({ label: `${r.memory_id} (${r.candidate_id ?? r.subject})`, lines: directionOf(r), body: r.skill ? bodyOf(r.skill.text) : undefined }));
  const request: SavedRequest = {
    messages,
    versions,
    negatives: remembered.negatives.map((n) => ({ memoryId: n.memoryId, lines: n.direction })),
    earlier: [...fromLineage, ...fromMemory],
  };
  writeJsonAtomic(context.paths.round(round).proposerRequest, request);
  return request;
}

function candidateBody(context: LoopContext, round: number, version: string): string | undefined {
  const file = `${context.paths.round(round).candidates}/v${version}.md`;
  return existsSync(file) ? bodyOf(readFileSync(file, 'utf8')) : undefined;
}

function asEarlier(round: number) {
  return (p: Proposal) => ({ label: `round ${round} version ${p.version}`, words: directionWords(addedLines(p.diff)), body: p.check.ok ? bodyOf(p.check.text) : undefined });
}

function failed(reason: string): CheckResult {
  return { ok: false, code: 'no_proposal', reason, version: null };
}
