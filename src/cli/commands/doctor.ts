/**
 * `isobudget doctor EXPERIMENT.yaml` — the seed's first step: fix key and base URL, make one
 * hello-world call, and record prompt/completion/total tokens before any eval burns budget.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig, readApiKey } from '../../config/index.js';
import { IsobudgetError } from '../../core/errors.js';
import { countPromptTokens } from '../../core/tokens.js';
import { LEDGER_SCHEMA_VERSION, type CallRecord } from '../../ledger/records.js';
import { createProvider } from '../../providers/create-provider.js';
import { ProviderError } from '../../core/provider-error.js';
import { parseCommandArgs } from '../args.js';
import { RUNS_OUT_OPTION } from '../common-options.js';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';

const USAGE = 'isobudget doctor EXPERIMENT.yaml [--out runs] [--variant candidate|baseline]';

export const doctorCommand: CommandSpec = {
  summary: 'check the provider config and key env var, make one hello-world call, record its tokens',
  async run(argv, io) {
    const { positionals, values } = parseCommandArgs('doctor', argv, {
      out: { ...RUNS_OUT_OPTION, help: 'folder of doctor.jsonl, where the hello-world call is recorded' },
      variant: { type: 'string', value: 'NAME', help: 'whose model to call: candidate or baseline', fallback: 'candidate', example: 'baseline' },
    }, USAGE);
    const file = positionals[0];
    if (!file) throw new IsobudgetError('usage', 'doctor: missing EXPERIMENT.yaml', { hint: USAGE });
    const config = await loadConfig(resolve(io.cwd, file));
    const { provider: providerConfig } = config;
    io.stdout.write(`config ok: protocol ${providerConfig.protocol}, base URL ${providerConfig.baseUrl}\n`);
    const apiKey = readApiKey(config, io.env);
    io.stdout.write(providerConfig.apiKeyEnv ? `key: $${providerConfig.apiKeyEnv} is set (${apiKey?.length ?? 0} characters; value not shown)\n` : 'key: none needed\n');
    const variant = values.variant === 'baseline' ? config.variants.baseline : config.variants.candidate;
    const provider = createProvider({ ...providerConfig, apiKey }, { simSeed: config.seed, simLatencyScale: 0 });
    const messages = [{ role: 'user' as const, content: 'Say hello in one short sentence.' }];
    const started = performance.now();
    try {
      const result = await provider.generate({ model: variant.model, messages, maxTokens: 64, temperature: 0, n: 1, signal: AbortSignal.timeout(providerConfig.timeoutMs) });
      const latency = Math.round(performance.now() - started);
      const { usage } = result;
      const show = (value: number | undefined): string => (value === undefined ? 'unknown (not reported)' : String(value));
      io.stdout.write(`hello-world: ${JSON.stringify(result.choices[0]?.text ?? '')}\n`);
      io.stdout.write(`  prompt_tokens: ${show(usage.inputTokens)} (estimated locally: ${countPromptTokens(messages)})\n  completion_tokens: ${show(usage.outputTokens)}\n  total_tokens: ${show(usage.totalTokens)}\n  latency_ms: ${latency}\n`);
      const record: CallRecord = {
        schema_version: LEDGER_SCHEMA_VERSION, kind: 'call', run_id: `doctor-${new Date().toISOString()}`, case_id: 'hello-world', arm: 'doctor', n: 1, path: 0, paths: 1, epoch: 0, split: 'val',
        model: variant.model, base_url: provider.baseUrl, protocol: provider.protocol, prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens,
        total_tokens: usage.totalTokens, cached_tokens: usage.cachedTokens, reasoning_tokens: usage.reasoningTokens, usage_missing: usage.totalTokens === undefined,
        max_tokens: 64, finish_reason: result.choices[0]?.finishReason.unified ?? 'error', finish_reason_raw: result.choices[0]?.finishReason.raw, latency_ms: latency,
        attempt: 1, status: result.status, role: 'generate', error: undefined, retried: false, note: 'doctor', ts: new Date().toISOString(),
      };
      const out = resolve(io.cwd, values.out ?? 'runs');
      mkdirSync(out, { recursive: true });
      appendFileSync(join(out, 'doctor.jsonl'), `${JSON.stringify(record)}\n`);
      io.stdout.write(`recorded in ${join(out, 'doctor.jsonl')}\n`);
      if (usage.totalTokens === undefined) io.stdout.write('warning: the provider reported no usage; budgets cannot be verified against it\n');
      return EXIT.ok;
    } catch (error) {
      if (error instanceof ProviderError) {
        io.stderr.write(`hello-world call failed: ${error.kind}${error.status ? ` ${error.status}` : ''}: ${error.message}\n`);
        return EXIT.usage;
      }
      throw error;
    } finally {
      await provider.close?.();
    }
  },
};
