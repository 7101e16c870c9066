/**
 * `isobudget clients write|lint` — the seed's client configs (DESIGN §8): Claude Code
 * settings.json, Codex config.toml, CC Switch's import deep link (or the seed's three-field
 * JSON). Writes print or store a key only when asked (--include-key, value read from the env
 * var --key-env names, never from argv), back up any file they replace, and lint what they
 * wrote with the same rules `clients lint` uses.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CLIENT_KINDS, formatFinding, isCcSwitchLink, lintText, renderClientConfig, resolveTarget, writeWithBackup, type CcSwitchApp, type CcSwitchFormat, type ClaudeAuthVar, type ClientKind } from '../../clients/index.js';
import { IsobudgetError } from '../../core/errors.js';
import { MAX_SMALL_FILE_BYTES, readInputTextSync } from '../../core/input-file.js';
import { parseCommandArgs, unknownSubcommand } from '../args.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import type { CommandSpec } from './spec.js';

const USAGE = `isobudget clients write claude-code|codex|cc-switch (--gateway URL | --provider PRESET | --base-url URL)
        [--name NAME] [--id ID] [--key-env NAME] [--auth token|api-key] [--model MODEL] [--include-key] [--out FILE]
        cc-switch: [--app claude|codex] [--format link|seed]
isobudget clients lint FILE|LINK… [--kind claude-code|codex|cc-switch] [--json]
Without --out the config is printed. Without --include-key the key slot holds YOUR_API_KEY (Codex only names the
variable; a CC Switch link carries no apiKey). cc-switch prints CC Switch's import link
ccswitch://v1/import?resource=provider&app=claude&name=…&endpoint=…&homepage=… (open it to import); --format seed
prints the seed's { provider, baseUrl, apiKey } JSON instead. --auth defaults to api-key for api.anthropic.com, token elsewhere.`;

/** Warnings that only say the key slot is still to be filled — expected when --include-key is not given. */
const KEY_SLOT_RULES = new Set(['placeholder-key', 'cc-switch-no-api-key']);

export const clientsCommand: CommandSpec = {
  summary: 'write or lint Claude Code / Codex / CC Switch configs (and CC Switch import links) for a provider or the gateway',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('clients', argv, {
      gateway: { type: 'string', value: 'URL', help: 'write: point the client at this isobudget gateway', example: 'http://127.0.0.1:8788' },
      provider: { type: 'string', value: 'PRESET', help: 'write: point the client at a provider preset (openai, anthropic, taotoken, …)', example: 'taotoken' },
      'base-url': { type: 'string', value: 'URL', help: 'write: point the client at this API base URL', example: 'https://api.example.com' },
      name: { type: 'string', value: 'NAME', help: 'write: the provider\'s display name', fallback: 'from the URL\'s host', example: 'TaoToken' },
      id: { type: 'string', value: 'ID', help: 'write: the provider\'s id in the client config', fallback: 'from the name', example: 'taotoken' },
      'key-env': { type: 'string', value: 'NAME', help: 'write: the env var that holds the key', fallback: 'the preset\'s, else one named after the provider', example: 'TAOTOKEN_API_KEY' },
      auth: { type: 'string', value: 'MODE', help: 'write claude-code: send the key as token (Authorization) or api-key (x-api-key)', fallback: 'api-key for api.anthropic.com, else token', example: 'api-key' },
      model: { type: 'string', value: 'MODEL', help: 'write: the model the client uses', example: 'claude-sonnet-5' },
      'include-key': { type: 'boolean', help: 'write: put the key itself (from --key-env) in the output, not YOUR_API_KEY' },
      out: { type: 'string', value: 'FILE', help: 'write: write the config to FILE instead of printing it', example: '.claude/settings.json' },
      kind: { type: 'string', value: 'KIND', help: 'lint: what the files are: claude-code, codex or cc-switch', fallback: 'from the file', example: 'codex' },
      json: { type: 'boolean', help: 'lint: print the findings as JSON' },
      app: { type: 'string', value: 'APP', help: 'write cc-switch: which CC Switch side: claude or codex', fallback: 'claude', example: 'codex' },
      format: { type: 'string', value: 'FORMAT', help: 'write cc-switch: link (the import deep link) or seed (the three-field JSON)', fallback: 'link', example: 'seed' },
    }, USAGE);
    const [action, ...rest] = positionals;
    if (action === 'lint') return lint(rest, values.kind === undefined ? undefined : kindOf(values.kind), values.json === true, io);
    if (action !== 'write') throw unknownSubcommand('clients', action, ['write', 'lint'], USAGE);
    const client = kindOf(rest[0]);
    if (client !== 'cc-switch' && (values.app !== undefined || values.format !== undefined)) throw new IsobudgetError('usage', `clients write ${client}: --app and --format are for cc-switch`, { hint: USAGE });
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
    const rendered = renderClientConfig({
      client, target, authVar: authVar(values.auth), model: values.model, keyValue, existing,
      ...(values.format === undefined ? {} : { format: formatOf(values.format) }),
      ...(values.app === undefined ? {} : { app: appOf(values.app) }),
    });
    const shownAs = out ?? `(${client})`;
    if (out === undefined) io.stdout.write(rendered.text);
    else {
      const backup = writeWithBackup(out, rendered.text, rendered.containsKey);
      io.stderr.write(`wrote ${out}${backup ? ` (previous file kept as ${backup})` : ''}\n`);
    }
    // The same rules as \`clients lint\`: anything but an unfilled key slot would be a disagreement.
    const expected = keyValue === undefined ? KEY_SLOT_RULES : new Set(['key-in-link']);
    for (const finding of lintText(out ?? 'written', rendered.text, client).findings.filter((f) => !expected.has(f.rule))) io.stderr.write(`${formatFinding(shownAs, finding)}\n`);
    if (client === 'codex') io.stderr.write(`Codex reads the key from $${target.keyEnv}: export ${target.keyEnv}=… in the shell that runs codex\n`);
    else if (client === 'cc-switch' && values.format !== 'seed') {
      io.stderr.write(keyValue === undefined
        ? `open the link to import it into CC Switch; it carries no apiKey, and CC Switch asks for one ("API key is required"): rerun with --include-key to put $${target.keyEnv} in it (then do not share the link)\n`
        : 'open the link to import it into CC Switch; it carries the key in clear — do not share it\n');
    } else if (keyValue === undefined) io.stderr.write(`the key slot holds ${'YOUR_API_KEY'}: replace it, or rerun with --include-key to copy $${target.keyEnv} into the file\n`);
    return EXIT.ok;
  },
};

function lint(args: string[], kind: ClientKind | undefined, json: boolean, io: CliIO): number {
  if (args.length === 0) throw new IsobudgetError('usage', 'clients lint: pass one or more files (or CC Switch links)', { hint: USAGE });
  let errors = 0;
  const report: Array<{ file: string; kind: string | null; findings: unknown[] }> = [];
  for (const arg of args) {
    // A link on the command line is linted as given, and never echoed: it may hold a key.
    const isLink = isCcSwitchLink(arg);
    const name = isLink ? 'ccswitch link' : arg;
    let text = arg;
    if (!isLink) {
      const path = resolve(io.cwd, arg);
      if (!existsSync(path)) throw new IsobudgetError('not_found', `clients lint: no such file (a CC Switch link starts with ccswitch://)`, { location: { file: path } });
      text = readInputTextSync(path, { what: 'client config', code: 'clients_file', maxBytes: MAX_SMALL_FILE_BYTES });
    }
    const result = lintText(isLink ? 'link' : resolve(io.cwd, arg), text, isLink ? 'cc-switch' : kind);
    errors += result.findings.filter((f) => f.severity === 'error').length;
    report.push({ file: name, kind: result.kind ?? null, findings: result.findings });
    if (!json) {
      if (result.findings.length === 0) io.stdout.write(`${name}: ok (${result.kind ?? 'unknown'})\n`);
      for (const finding of result.findings) io.stdout.write(`${formatFinding(name, finding)}\n`);
    }
  }
  if (json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return errors > 0 ? EXIT.usage : EXIT.ok;
}

function kindOf(value: string | undefined): ClientKind {
  if (value !== undefined && (CLIENT_KINDS as readonly string[]).includes(value)) return value as ClientKind;
  throw new IsobudgetError('usage', `clients: expected one of ${CLIENT_KINDS.join(', ')}, got '${value ?? ''}'`, { hint: USAGE });
}

/** Undefined: the target decides (ANTHROPIC_API_KEY for api.anthropic.com, else ANTHROPIC_AUTH_TOKEN). */
function authVar(value: string | undefined): ClaudeAuthVar | undefined {
  if (value === undefined) return undefined;
  if (value === 'token') return 'ANTHROPIC_AUTH_TOKEN';
  if (value === 'api-key') return 'ANTHROPIC_API_KEY';
  throw new IsobudgetError('usage', `--auth must be token (ANTHROPIC_AUTH_TOKEN) or api-key (ANTHROPIC_API_KEY), got '${value}'`);
}

function appOf(value: string): CcSwitchApp {
  if (value === 'claude' || value === 'codex') return value;
  throw new IsobudgetError('usage', `--app must be claude or codex, got '${value}'`);
}

function formatOf(value: string): CcSwitchFormat {
  if (value === 'link' || value === 'seed') return value;
  throw new IsobudgetError('usage', `--format must be link (CC Switch's import deep link) or seed (the three-field JSON), got '${value}'`);
}
