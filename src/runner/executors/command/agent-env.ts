/**
 * The agent's environment: a minimal base (PATH, HOME, locale, temp dir — ours holds the
 * upstream key), what the experiment passes through or adds, and last, overriding all of
 * it, the gateway: both SDK families' base URL variables and the path's virtual key.
 * Claude Code gets exactly one auth variable (ANTHROPIC_AUTH_TOKEN).
 */
const BASE_ENV = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'TEMP', 'TMP', 'SYSTEMROOT', 'NODE_PATH'];

export interface AgentEnvInput {
  inherit: readonly string[];
  extra: Readonly<Record<string, string>>;
  gatewayUrl: string;
  virtualKey: string;
  /** The path's share of B (tokens). */
  budget: number;
  caseId: string;
  path: number;
  n: number;
  arm: string;
  model: string;
  workdir: string;
  inputFile: string;
  systemPromptFile: string;
}

export function agentEnv(input: AgentEnvInput, source: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of [...BASE_ENV, ...input.inherit]) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, input.extra);
  delete env['ANTHROPIC_API_KEY'];
  return {
    ...env,
    ANTHROPIC_BASE_URL: input.gatewayUrl,
    ANTHROPIC_AUTH_TOKEN: input.virtualKey,
    OPENAI_BASE_URL: `${input.gatewayUrl}/v1`,
    OPENAI_API_KEY: input.virtualKey,
    ISOBUDGET_API_KEY: input.virtualKey,
    ISOBUDGET_GATEWAY_URL: input.gatewayUrl,
    ISOBUDGET_OPENAI_BASE_URL: `${input.gatewayUrl}/v1`,
    ISOBUDGET_BUDGET_TOKENS: String(input.budget),
    ISOBUDGET_CASE_ID: input.caseId,
    ISOBUDGET_PATH: String(input.path),
    ISOBUDGET_N: String(input.n),
    ISOBUDGET_ARM: input.arm,
    ISOBUDGET_MODEL: input.model,
    ISOBUDGET_WORKDIR: input.workdir,
    ISOBUDGET_INPUT_FILE: input.inputFile,
    ISOBUDGET_SYSTEM_PROMPT_FILE: input.systemPromptFile,
  };
}
