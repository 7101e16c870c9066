/**
 * One path of the `command` executor: mint the path's virtual key (budget ⌊B/n⌋, tagged
 * run/case/arm/path), prepare a fresh working directory, run the agent with the gateway in
 * its environment, then move the key's call records into the unit's ledger, book what the
 * gateway billed against the unit's budget, and hand the output to the scorer.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { CommandExecutorConfig } from '../../../config/types.js';
import { callCostUsd } from '../../../pricing/call-cost.js';
import { runProcess, type ProcessResult } from '../../../scorers/run-process.js';
import type { PathRun, UnitContext } from '../../unit-context.js';
import { agentEnv } from './agent-env.js';
import { distrustBadUsage, pathBooking } from './gateway-booking.js';
import { renderArgv } from './argv-template.js';
import type { RunGateway } from './run-gateway.js';
import { preparePathDirs, removePathDirs } from './workdir.js';

/** Agent stdout kept (bytes): enough for a JSON transcript, bounded for a runaway agent. */
const OUTPUT_BYTES = 8 * 1024 * 1024;
/** How long the last call's record may take to land after the agent exits (ms). */
const RECORD_GRACE_MS = 5_000;

export interface CommandPathInput {
  context: UnitContext;
  executor: CommandExecutorConfig;
  gateway: RunGateway;
  path: number;
  /** The path's share of B (tokens). */
  budget: number;
  /** Where `inherit_env` names are read from: the run's environment. */
  sourceEnv: NodeJS.ProcessEnv;
}

export async function runCommandPath(input: CommandPathInput): Promise<PathRun> {
  const { context, executor, gateway, path, budget, sourceEnv } = input;
  const { run, unit } = context;
  const variant = run.config.variants[unit.arm.variant];
  const n = unit.arm.n;
  const tags = { run: run.runId, case: unit.evalCase.id, arm: unit.arm.arm, n: String(n), path: String(path), epoch: String(unit.epoch), split: unit.split };
  const { key, secret } = gateway.keys.create({ budget, tags });
  const dirs = await preparePathDirs(executor.fixtureDir, unit.evalCase.input, variant.systemPrompt);
  try {
    const url = gateway.gateway.url;
    const values = {
      input: unit.evalCase.input, input_file: dirs.inputFile, case_id: unit.evalCase.id, workdir: dirs.workdir,
      config_dir: dirname(run.config.configPath), model: variant.model, system_prompt: variant.systemPrompt,
      system_prompt_file: dirs.systemPromptFile, path: String(path), n: String(n), arm: unit.arm.arm, budget: String(budget),
      gateway_url: url, openai_base_url: `${url}/v1`,
    };
    const argv = renderArgv(executor.argv, values);
    const env = agentEnv({
      inherit: executor.inheritEnv, extra: executor.env, gatewayUrl: url, virtualKey: secret, budget, caseId: unit.evalCase.id, path, n,
      arm: unit.arm.arm, model: variant.model, workdir: dirs.workdir, inputFile: dirs.inputFile, systemPromptFile: dirs.systemPromptFile,
    }, sourceEnv);
    await run.pool.acquire();
    let result: ProcessResult;
    try {
      result = await runProcess({ argv, cwd: dirs.workdir, timeoutMs: executor.timeoutMs, env, captureBytes: OUTPUT_BYTES, signal: run.signal });
    } finally {
      run.pool.release();
    }
    // A killed agent's last call may still be in flight: let it end and be recorded.
    await gateway.gateway.inFlight.idle(key.id, RECORD_GRACE_MS);
    gateway.keys.revoke(key.id);
    const records = gateway.sink.take(key.id);
    // The agent's calls are the run's calls: costed with the run's prices; counts that are
    // not token counts (a negative completion) are unknown, never a credit.
    for (const record of records) {
      if (!distrustBadUsage(record)) record.cost_usd = callCostUsd(record, run.prices);
    }
    context.calls.push(...records);
    const spent = pathBooking(records, gateway.keys.get(key.id)?.spent ?? 0, budget);
    context.budget.settle(0, spent);
    if (spent > 0) run.onSpend(unit.arm.arm, spent);
    if (result.kind === 'aborted' || run.signal.aborted) throw run.signal.reason;

    const answered = records.filter((r) => r.error === undefined);
    const tokens = answered.some((r) => r.usage_missing) || records.some((r) => r.error !== undefined && r.status !== undefined && r.status < 300)
      ? undefined
      : answered.reduce((sum, r) => sum + (r.total_tokens ?? 0), 0);
    const budgetHit = records.some((r) => r.finish_reason === 'budget_exhausted');
    const base = { path, tokens };
    switch (result.kind) {
      case 'spawn_error':
        // The working directory was just made, so ENOENT here is the program.
        if (result.code === 'ENOENT') return { ...base, text: '', finishReason: 'error', error: `command not found: ${argv[0] ?? ''}` };
        return { ...base, text: '', finishReason: 'error', error: `cannot run the agent: ${result.message}` };
      case 'timeout':
        return { ...base, text: '', finishReason: 'error', error: `agent timed out after ${executor.timeoutMs} ms` };
      case 'signaled':
        return { ...base, text: '', finishReason: 'error', error: `agent was terminated by ${result.signal}` };
      case 'exited': {
        const text = executor.output.kind === 'stdout' ? result.stdout : await readFile(resolve(dirs.workdir, executor.output.path), 'utf8').catch(() => undefined);
        if (text === undefined) return { ...base, text: '', finishReason: budgetHit ? 'budget_exhausted' : 'error', error: `the agent wrote no ${executor.output.kind === 'file' ? executor.output.path : 'output'}` };
        if (budgetHit) return { ...base, text, finishReason: 'budget_exhausted', error: undefined };
        if (result.exitCode !== 0) return { ...base, text, finishReason: 'error', error: `agent exited with ${result.exitCode}${result.stderr.trim() ? `: ${result.stderr.trim().slice(-500)}` : ''}` };
        return { ...base, text, finishReason: 'stop', error: undefined };
      }
      default:
        throw run.signal.reason;
    }
  } finally {
    if (!executor.keepWorkdirs) await removePathDirs(dirs);
  }
}
