/** `command` executor YAML → CommandExecutorConfig: defaults, absolute fixture path, checks that need the rest of the config. */
import { withoutUserinfo } from '../core/display-url.js';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { COMMAND_EXECUTOR_DEFAULTS, type RawCommandExecutor } from './command-executor-schema.js';
import type { ConfigProblem } from './problem.js';
import type { CommandExecutorConfig } from './types.js';

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function normalizeCommandExecutor(raw: RawCommandExecutor, configDir: string, providerKeyEnv: string | undefined, problems: ConfigProblem[]): CommandExecutorConfig {
  const fixtureDir = raw.fixture_dir === undefined ? undefined : resolve(configDir, raw.fixture_dir);
  if (fixtureDir !== undefined && !isDirectory(fixtureDir)) {
    problems.push({ code: 'config_file_not_found', path: ['executor', 'fixture_dir'], anchor: 'value', message: `fixture folder not found: ${fixtureDir}`, hint: 'create the folder, or fix the path (it is relative to the config file)' });
  }
  const output = raw.output ?? COMMAND_EXECUTOR_DEFAULTS.output;
  const inheritEnv = [...(raw.inherit_env ?? [])];
  const upstreamKeyEnv = raw.gateway?.api_key_env ?? providerKeyEnv;
  const leaked = inheritEnv.indexOf(upstreamKeyEnv ?? '');
  if (upstreamKeyEnv !== undefined && leaked !== -1) {
    problems.push({
      code: 'config_invalid', path: ['executor', 'inherit_env', leaked], anchor: 'value', message: `inherit_env hands the agent ${upstreamKeyEnv}, the upstream key the gateway holds`,
      hint: 'remove it: the agent reaches the upstream through the gateway with a per-path virtual key, so its spend is recorded and capped',
    });
  }
  return {
    type: 'command',
    argv: [...raw.argv],
    fixtureDir,
    timeoutMs: raw.timeout_ms ?? COMMAND_EXECUTOR_DEFAULTS.timeoutMs,
    output: output === 'stdout' ? { kind: 'stdout' } : { kind: 'file', path: output.slice('file:'.length) },
    env: { ...(raw.env ?? {}) },
    inheritEnv,
    keepWorkdirs: raw.keep_workdirs ?? false,
    gateway: { upstream: raw.gateway?.upstream === undefined ? undefined : withoutUserinfo(raw.gateway.upstream), apiKeyEnv: raw.gateway?.api_key_env, upstreamAuth: raw.gateway?.upstream_auth ?? COMMAND_EXECUTOR_DEFAULTS.upstreamAuth },
  };
}
