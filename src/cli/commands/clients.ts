/**
 * `isobudget clients write|lint` — the seed's client configs (DESIGN §8): Claude Code
 * settings.json, Codex config.toml, CC Switch provider. Writes print or store a key only
 * when asked (--include-key, value read from the env var --key-env names, never from argv)
 * and back up any file they replace.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CLIENT_KINDS, formatFinding, lintText, renderClientConfig, resolveTarget, writeWithBackup, type ClaudeAuthVar, type ClientKind } from '../../clients/index.js';
import { IsobudgetError } from '../../core/errors.js';
import { parseCommandArgs } from '../args.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import type { CommandSpec } from './spec.js';

const USAGE = `isobudget clients write claude-code|codex|cc-switch (--gateway URL | --provider PRESET | --base-url URL)
        [--name NAME] [--id ID] [--key-env NAME] [--auth token|api-key] [--model MODEL] [--include-key] [--out FILE]
isobudget clients lint FILE… [--kind claude-code|codex|cc-switch] [--json]
Without --out the config is printed. Without --include-key the key slot holds YOUR_API_KEY (Codex only names the variable).`;

export const clientsCommand: CommandSpec = {
  summary: 'write or lint Claude Code / Codex / CC Switch configs for a provider or the gateway',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('clients', argv, {
      gateway: { type: 'string' },
      provider: { type: 'string' },
      'base-url': { type: 'string' },
      name: { type: 'string' },
      id: { type: 'string' },
      'key-env': { type: 'string' },
      auth: { type: 'string' },
      model: { type: 'string' },
      'include-key': { type: 'boolean' },
      out: { type: 'string' },
      kind: { type: 'string' },
      json: { type: 'boolean' },
    }, USAGE);
    const [action, ...rest] = positionals;
    if (action === 'lint') return lint(rest, values.kind === undefined ? undefined : kindOf(values.kind), values.json === true, io);
    if (action !== 'write') throw new IsobudgetError('usage', "clients: expected 'write' or 'lint'", { hint: USAGE });
    const client = kindOf(rest[0]);
    const keyEnv = values['key-env'];
    if (keyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)) throw new IsobudgetError('usage', '--key-env takes the NAME of an environment variable, not the key', { hint: 'e.g. --key-env TAOTOKEN_API_KEY' });
    const target = resolveTarget({ gateway: values.gateway, provider: values.provider, baseUrl: values['base-url'], name: values.name, id: values.id, keyEnv });
    let keyValue: string | undefined;
    if (values['include-key'] === true && client !== 'codex') {
      keyValue = io.env[target.keyEnv]?.trim();
      if (!keyValue) throw new IsobudgetError('usage', `--include-key: environment variable ${target.keyEnv} is not set`, { hint: `export ${target.keyEnv}=… first (or name another variable with --key-env)` });
    }
    const out = values.out === undefined ? undefined : resolve(io.cwd, values.out);
    const existing = out !== undefined && existsSync(out) ? readFileSync(out, 'utf8') : undefined;
    const rendered = renderClientConfig({ client, target, authVar: authVar(values.auth), model: values.model, keyValue, existing });
    if (out === undefined) io.stdout.write(rendered.text);
    else {
      const backup = writeWithBackup(out, rendered.text, rendered.containsKey);
      io.stderr.write(`wrote ${out}${backup ? ` (previous file kept as ${backup})` : ''}\n`);
      for (const finding of lintText(out, rendered.text, client).findings.filter((f) => f.rule !== 'placeholder-key')) io.stderr.write(`${formatFinding(out, finding)}\n`);
    }
    if (client === 'codex') io.stderr.write(`Codex reads the key from $${target.keyEnv}: export ${target.keyEnv}=… in the shell that runs codex\n`);
    else if (keyValue === undefined) io.stderr.write(`the key slot holds ${'YOUR_API_KEY'}: replace it, or rerun with --include-key to copy $${target.keyEnv} into the file\n`);
    return EXIT.ok;
  },
};

function lint(files: string[], kind: ClientKind | undefined, json: boolean, io: CliIO): number {
  if (files.length === 0) throw new IsobudgetError('usage', 'clients lint: pass one or more files', { hint: USAGE });
  let errors = 0;
  const report: Array<{ file: string; kind: string | null; findings: unknown[] }> = [];
  for (const file of files) {
    const path = resolve(io.cwd, file);
    if (!existsSync(path)) throw new IsobudgetError('not_found', `clients lint: no such file`, { location: { file: path } });
    const result = lintText(path, readFileSync(path, 'utf8'), kind);
    errors += result.findings.filter((f) => f.severity === 'error').length;
    report.push({ file, kind: result.kind ?? null, findings: result.findings });
    if (!json) {
      if (result.findings.length === 0) io.stdout.write(`${file}: ok (${result.kind ?? 'unknown'})\n`);
      for (const finding of result.findings) io.stdout.write(`${formatFinding(file, finding)}\n`);
    }
  }
  if (json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return errors > 0 ? EXIT.usage : EXIT.ok;
}

function kindOf(value: string | undefined): ClientKind {
  if (value !== undefined && (CLIENT_KINDS as readonly string[]).includes(value)) return value as ClientKind;
  throw new IsobudgetError('usage', `clients: expected one of ${CLIENT_KINDS.join(', ')}, got '${value ?? ''}'`, { hint: USAGE });
}

function authVar(value: string | undefined): ClaudeAuthVar {
  if (value === undefined || value === 'token') return 'ANTHROPIC_AUTH_TOKEN';
  if (value === 'api-key') return 'ANTHROPIC_API_KEY';
  throw new IsobudgetError('usage', `--auth must be token (ANTHROPIC_AUTH_TOKEN) or api-key (ANTHROPIC_API_KEY), got '${value}'`);
}
