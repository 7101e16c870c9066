/**
 * `examples/evolve-date-parser` end to end, on the simulator with its real waits, screening
 * sequentially (the loop's default: issue 14's anytime-valid run, its CS at the Bonferroni
 * level): the loop reaches an incumbent that is `real_evolution` against v1 within 5 rounds,
 * and its screens spend fewer tokens than the same loop with `screening: fixed`; the proposer's
 * "try several readings" direction is recorded as a negative pattern; a later round's
 * proposer input shows that pattern first and no later proposal repeats it; no test-split
 * case is in any ledger of the loop; summary.json's tokens are the sum of its ledgers and
 * within budget_tokens; the final skill and the config `isobudget gate` takes are written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config/index.js';
import { addedLines, directionWords, NEGATIVE_OVERLAP, overlap } from '../src/evolve/direction.js';
import { runEvolve, type EvolveResult } from '../src/evolve/loop.js';
import type { Manifest } from '../src/ledger/manifest.js';
import { openMemoryStore } from '../src/memory/store/open.js';
import type { VerdictRecord } from '../src/verdict/record.js';
import { caseIds, caseInputs, copyEvolveExample, loopLedgers } from './support/evolve.js';

let dir: string;
let result: EvolveResult;
let fixed: EvolveResult;

beforeAll(async () => {
  dir = copyEvolveExample();
  result = await runEvolve({ configPath: join(dir, 'experiment.yaml'), outDir: join(dir, 'evolve'), evolveId: 'e2e', storePath: join(dir, 'memory.sqlite'), cwd: dir, env: {} });
  // The same loop with fixed screens, afterwards (not beside it: the latency gates compare wall-clock times) and without
  // the simulator's waits — only its tokens are compared, and tokens do not depend on time.
  const fixedDir = copyEvolveExample();
  fixed = await runEvolve({ configPath: join(fixedDir, 'experiment.yaml'), outDir: join(fixedDir, 'evolve'), evolveId: 'fixed', storePath: join(fixedDir, 'memory.sqlite'), cwd: fixedDir, env: {}, flags: { screening: 'fixed' }, simLatencyScale: 0 });
}, 180_000);

describe('isobudget evolve on examples/evolve-date-parser', () => {
  test('reaches an incumbent that is real_evolution against v1 within 5 rounds, at the corrected level, screening sequentially', () => {
    const { summary, lineage } = result;
    expect(summary.correction).toEqual({ method: 'bonferroni', family_alpha: expect.closeTo(0.05, 12), planned_screens: 10, screen_confidence: expect.closeTo(0.995, 12), bootstrap_rounds: 10_000, screening: 'sequential', interval: 'betting confidence sequence' });
    const first = lineage.find((e) => e.status === 'accepted');
    expect(first).toMatchObject({ parent: '1', verdict: 'real_evolution', confidence: expect.closeTo(0.995, 12), screening: 'sequential', stop_reason: 'efficacy' });
    expect(first?.round).toBeLessThanOrEqual(5);
    // Accepted on the anytime-valid CS at 1 − α/m, read where the screen stopped: the same interval its verdict.json records.
    expect(first?.ci95?.[0]).toBeGreaterThan(0);
    const verdict = JSON.parse(readFileSync(join(result.dir, first?.run_dir ?? '', 'verdict.json'), 'utf8')) as VerdictRecord;
    expect(verdict.sequential).toMatchObject({ stopped_at: first?.stopped_at, stop_reason: 'efficacy', method: { confidence: expect.closeTo(0.995, 12), gain_confidence: 0.8 } });
    expect(first?.ci95).toEqual(verdict.sequential?.n1.cs);
    expect(first?.stopped_at).toBeLessThan(200);
    expect(summary.final_vs_start).toMatchObject({ start_version: '1', verdict: 'real_evolution' });
    expect(summary.val.final?.pass).toBeGreaterThan(summary.val.start?.pass ?? 1);
    // Every screened candidate was remembered; only real_evolution replaced an incumbent.
    for (const entry of lineage) {
      if (entry.run_dir !== null) expect(entry.memory_id).not.toBeNull();
      if (entry.status === 'accepted') expect(entry.verdict).toBe('real_evolution');
    }
  });

  test('every screen is the sequential run at the corrected level, and the loop spends fewer screening tokens than with fixed screens', () => {
    const screened = result.lineage.filter((e) => e.run_dir !== null);
    expect(screened.length).toBeGreaterThanOrEqual(4);
    for (const entry of screened) {
      const manifest = JSON.parse(readFileSync(join(result.dir, entry.run_dir ?? '', 'manifest.json'), 'utf8')) as Manifest;
      expect(manifest.sequential?.plan.levels).toMatchObject({ confidence: expect.closeTo(0.995, 12), gainConfidence: 0.8, futilityConfidence: 0.6, horizon: 200 });
      expect(manifest.sequential?.stopped_at).toBe(entry.stopped_at);
      expect(entry).toMatchObject({ screening: 'sequential', stop_reason: expect.stringMatching(/^(efficacy|futility|leakage|exhausted)$/) });
      expect(entry.stopped_at).toBeGreaterThanOrEqual(40);
    }
    // The leakage direction stops at the first look: n=1 cannot reach the minimum gain (its n=4 gain is then judged
    // on those 40 cases by the ordinary rules); most screens stop before the whole split.
    expect(screened.find((e) => e.verdict === 'budget_leakage')).toMatchObject({ stop_reason: expect.stringMatching(/^(leakage|futility)$/), stopped_at: 40 });
    expect(result.summary.screening.stopped_early).toBeGreaterThan(screened.length / 2);
    expect(result.summary.screening.tokens_spent).toBe(result.summary.tokens.screen);
    expect(fixed.summary.screening).toMatchObject({ method: 'fixed', stopped_early: 0 });
    expect(fixed.lineage.every((e) => e.stopped_at === null && e.stop_reason === null)).toBe(true);

    const sequentialTokens = result.summary.tokens.screen;
    const fixedTokens = fixed.summary.tokens.screen;
    process.stdout.write(`evolve-date-parser screening tokens: sequential ${sequentialTokens} (${result.summary.screening.screens} screens), fixed ${fixedTokens} (${fixed.summary.screening.screens} screens)\n`);
    expect(sequentialTokens).toBeLessThan(fixedTokens);
    // Round 1 screens the same two proposals against the same v1 in both loops: the same question, fewer tokens where the screen stopped.
    for (const version of ['2', '3']) {
      const a = result.lineage.find((e) => e.version === version);
      const b = fixed.lineage.find((e) => e.version === version);
      expect(a?.diff).toBe(b?.diff);
      if (a?.stop_reason === 'exhausted') expect(a.screen_tokens).toBe(b?.screen_tokens);
      else expect(a?.screen_tokens).toBeLessThan(b?.screen_tokens ?? 0);
    }
  });

  test('the leakage direction is a negative pattern; a later proposer input shows it first; no later proposal repeats it', async () => {
    const leak = result.lineage.find((e) => e.verdict === 'budget_leakage');
    expect(leak?.diff).toMatch(/several readings/);
    const store = openMemoryStore(join(dir, 'memory.sqlite'));
    const record = await store.getRecord(leak?.memory_id ?? '');
    store.close();
    expect(record?.type).toBe('negative_pattern');
    expect(result.summary.negative_patterns).toContain(leak?.memory_id);

    const later = result.lineage.filter((e) => e.round > (leak?.round ?? 99));
    expect(later.length).toBeGreaterThan(0);
    const input = readFileSync(join(result.dir, `round-${(leak?.round ?? 0) + 1}`, 'proposer-input.md'), 'utf8');
    const headings = [...input.matchAll(/^#{2,3} .*$/gm)].map((m) => m[0]);
    expect(headings[0]).toBe('## Memory 1 — negative patterns: do not repeat these directions');
    expect(headings[1]).toBe(`### NEGATIVE PATTERN ${leak?.memory_id}: depends on Best-of-N; no gain at the same budget with n=1`);
    expect(input.indexOf('NEGATIVE PATTERN')).toBeLessThan(input.indexOf('## Memory 2'));
    expect(input.indexOf('NEGATIVE PATTERN')).toBeLessThan(input.indexOf('## Incumbent skill'));
    const pattern = directionWords(addedLines(leak?.diff ?? ''));
    for (const entry of later) {
      expect(entry.diff).not.toMatch(/several readings|diversif/i);
      expect(overlap(directionWords(addedLines(entry.diff)), pattern)).toBeLessThan(NEGATIVE_OVERLAP);
    }
  });

  test('no test-split case in any call of any ledger of the loop, and no val or test case in any proposer input', () => {
    const test = caseIds(join(dir, 'data', 'test.jsonl'));
    const val = caseIds(join(dir, 'data', 'val.jsonl'));
    const train = caseIds(join(dir, 'data', 'train.jsonl'));
    const { calls, results, files } = loopLedgers(result.dir);
    expect(files.length).toBeGreaterThan(5);
    expect(calls.length).toBeGreaterThan(1000);
    expect(calls.filter((c) => test.has(c.case_id)).map((c) => c.case_id)).toEqual([]);
    expect(results.filter((r) => test.has(r.case_id)).map((r) => r.case_id)).toEqual([]);
    expect(calls.some((c) => c.split === 'test')).toBe(false);
    // The proposer's calls are in the loop's ledger with role propose; diagnosis calls are train cases only.
    expect(calls.filter((c) => c.role === 'propose').length).toBeGreaterThanOrEqual(result.summary.rounds_run);
    for (const call of calls.filter((c) => c.run_id.endsWith('-diagnose'))) expect(train.has(call.case_id)).toBe(true);
    expect(calls.filter((c) => val.has(c.case_id)).every((c) => /-r\d+-v\d+$/.test(c.run_id))).toBe(true);
    const held = [...caseInputs(join(dir, 'data', 'val.jsonl')), ...caseInputs(join(dir, 'data', 'test.jsonl'))];
    for (let round = 1; round <= result.summary.rounds_run; round += 1) {
      const input = readFileSync(join(result.dir, `round-${round}`, 'proposer-input.md'), 'utf8');
      expect(held.filter((text) => input.includes(text))).toEqual([]);
    }
  });

  test('summary.json: total tokens = the sum over its ledgers, per phase too, within budget_tokens', () => {
    const { calls } = loopLedgers(result.dir);
    const sum = calls.reduce((acc, c) => acc + (c.total_tokens ?? 0), 0);
    const summary = JSON.parse(readFileSync(join(result.dir, 'summary.json'), 'utf8')) as typeof result.summary;
    expect(summary.tokens.total).toBe(sum);
    expect(summary.tokens.diagnose + summary.tokens.propose + summary.tokens.screen).toBe(sum);
    expect(summary.tokens.propose).toBe(calls.filter((c) => c.role === 'propose').reduce((acc, c) => acc + (c.total_tokens ?? 0), 0));
    expect(summary.tokens.total).toBeLessThanOrEqual(summary.tokens.budget_tokens ?? 0);
    expect(summary.tokens.per_round.reduce((acc, r) => acc + r.diagnose + r.propose + r.screen, 0)).toBe(sum);
    // Each proposal's share of the proposer calls adds up to the proposer's tokens.
    expect(result.lineage.reduce((acc, e) => acc + e.proposer_tokens, 0)).toBe(summary.tokens.propose);
    expect(result.lineage.reduce((acc, e) => acc + e.screen_tokens, 0)).toBe(summary.tokens.screen);
  });

  test('lineage.json, the files of every round, the final skill beside the original and the gate config', async () => {
    const lineage = JSON.parse(readFileSync(join(result.dir, 'lineage.json'), 'utf8')) as Array<Record<string, unknown>>;
    for (const key of ['version', 'parent', 'round', 'diff', 'summary', 'status', 'verdict', 'n1_delta', 'ci95', 'tokens_per_success_ratio', 'proposer_tokens', 'screen_tokens', 'run_dir', 'memory_id']) expect(lineage[0]).toHaveProperty(key);
    expect(new Set(lineage.map((e) => e.status))).toEqual(new Set(['accepted', 'rejected', 'dropped'].filter((s) => lineage.some((e) => e.status === s))));
    for (const name of ['diagnosis.json', 'diagnosis.md', 'proposer-input.md']) expect(existsSync(join(result.dir, 'round-1', name))).toBe(true);
    for (const entry of result.lineage.filter((e) => e.run_dir !== null)) expect(existsSync(join(result.dir, entry.run_dir ?? '', 'verdict.json'))).toBe(true);
    const final = result.summary.final_skill;
    expect(final?.file).toBe(join(dir, 'skills', `date-parser-v${final?.version}.md`));
    const accepted = result.lineage.filter((e) => e.status === 'accepted').at(-1);
    expect(readFileSync(final?.file ?? '', 'utf8')).toBe(readFileSync(join(result.dir, `round-${accepted?.round}`, 'candidates', `v${accepted?.version}.md`), 'utf8'));
    expect(readFileSync(final?.changelog ?? '', 'utf8')).toContain(`v${accepted?.version} (round ${accepted?.round}`);
    const gate = await loadConfig(final?.gateConfig ?? '');
    expect(gate.variants.candidate.systemPrompt).toBe(readFileSync(final?.file ?? '', 'utf8'));
    expect(gate.variants.candidate.id).toBe(final?.candidateId);
    expect(gate.variants.baseline.skillFile).toBe(join(dir, 'skills', 'date-parser.md'));
    expect(result.summary.gate_command).toContain('isobudget gate');
    const report = readFileSync(join(result.dir, 'report.html'), 'utf8');
    expect(report).toContain('aria-label="lineage tree"');
    expect(report).toContain('n=1 pass on val per round');
    expect(report).toContain('anytime-valid CS at 99.5%');
    expect(report).toMatch(/sequential screens: [\d,]+ of ~[\d,]+ for every screen on the whole split/);
    for (const key of ['screening', 'stopped_at', 'stop_reason', 'tokens_full_split_estimate']) expect(lineage[0]).toHaveProperty(key);
    expect(report).not.toMatch(/<script src=|https?:\/\/(?!www\.w3\.org)/);
  });
});
