/**
 * The `command` executor's YAML (a branch of `executor:` in schema.ts): an external agent —
 * Claude Code, Codex, any CLI — run per path behind the isobudget gateway, which records its
 * calls and holds it to B/n tokens. Validation only; `normalize-command.ts` applies defaults.
 */
import { z } from 'zod';

export const COMMAND_EXECUTOR_DEFAULTS = {
  /** Wall-clock limit of one path (ms). */
  timeoutMs: 600_000,
  output: 'stdout',
  upstreamAuth: 'auto',
} as const;

/** What `{{…}}` may name inside argv. */
export const COMMAND_PLACEHOLDERS = [
  'input', 'input_file', 'case_id', 'workdir', 'config_dir', 'model', 'system_prompt', 'system_prompt_file',
  'path', 'n', 'arm', 'budget', 'gateway_url', 'openai_base_url',
] as const;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Variables whose value would be a credential: those come from the environment (inherit_env), never the YAML. */
const SECRET_NAME = /key|token|secret|password|credential/i;
const always = { when: (payload: { value: unknown }) => payload.value !== null && typeof payload.value === 'object' };

function opt<T extends z.ZodType>(schema: T, description: string, fallback?: unknown) {
  return schema.optional().meta(fallback === undefined ? { description } : { description, default: fallback });
}

const gateway = z.strictObject({
  upstream: opt(z.string().regex(/^https?:\/\/./, { error: 'must be an http(s):// URL' }), 'Where the gateway forwards the agent\'s calls (default: provider.base_url; with protocol sim, an in-process simulator).'),
  api_key_env: opt(z.string().regex(ENV_NAME, { error: 'must be the NAME of an environment variable' }), 'NAME of the env var with the upstream key (default: provider.api_key_env). The agent never sees it.'),
  upstream_auth: opt(z.enum(['auto', 'bearer', 'x-api-key']), 'How the key goes upstream: auto (x-api-key for Anthropic calls, Bearer for OpenAI ones), bearer, x-api-key.', COMMAND_EXECUTOR_DEFAULTS.upstreamAuth),
});

export const commandExecutorSchema = z
  .strictObject({
    type: z.literal('command'),
    argv: z.array(z.string().min(1)).min(1).meta({
      description: `Program and arguments, run without a shell in a fresh working directory; placeholders: ${COMMAND_PLACEHOLDERS.map((p) => `{{${p}}}`).join(' ')}. E.g. [claude, -p, "{{input}}", --output-format, json].`,
    }),
    fixture_dir: opt(z.string().min(1), 'Folder (relative to this YAML) copied into every path\'s fresh working directory.'),
    timeout_ms: opt(z.int().positive(), 'Wall-clock limit of one path (ms); then its whole process group is killed.', COMMAND_EXECUTOR_DEFAULTS.timeoutMs),
    output: opt(z.string().regex(/^(stdout|file:.+)$/, { error: 'must be `stdout` or `file:PATH` (relative to the working directory)' }), 'The path\'s answer: stdout, or file:PATH the agent writes in its working directory.', COMMAND_EXECUTOR_DEFAULTS.output),
    env: opt(z.record(z.string().regex(ENV_NAME, { error: 'must be an environment variable name' }), z.string()), 'Extra environment variables for the agent (never credentials: use inherit_env).'),
    inherit_env: opt(z.array(z.string().regex(ENV_NAME, { error: 'must be an environment variable name' })), 'Names of variables passed through from isobudget\'s own environment (PATH, HOME, locale and temp dir always are).'),
    keep_workdirs: opt(z.boolean(), 'Keep each path\'s working directory after the run (for debugging).', false),
    gateway: opt(gateway, 'The gateway the agent talks to (started by the run on 127.0.0.1).'),
  })
  .superRefine((c, ctx) => {
    (Array.isArray(c.argv) ? c.argv : []).forEach((arg: unknown, index) => {
      if (typeof arg !== 'string') return;
      for (const match of arg.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)) {
        const name = match[1] ?? '';
        if (!(COMMAND_PLACEHOLDERS as readonly string[]).includes(name)) {
          ctx.addIssue({ code: 'custom', path: ['argv', index], message: `unknown placeholder {{${name}}}`, params: { hint: `use one of ${COMMAND_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}` } });
        }
      }
    });
    const env = typeof c.env === 'object' && c.env !== null ? Object.keys(c.env) : [];
    for (const name of env.filter((n) => SECRET_NAME.test(n))) {
      ctx.addIssue({ code: 'custom', path: ['env', name], message: `\`${name}\` would put a credential in the config`, params: { at: 'key', hint: `export it and list it under inherit_env: [${name}] instead` } });
    }
  }, always);

export type RawCommandExecutor = z.infer<typeof commandExecutorSchema>;
