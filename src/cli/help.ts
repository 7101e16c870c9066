/**
 * A command's `--help`: its usage lines, then one line per option — what it does, its default
 * and an example — generated from the option table the parser itself uses, so the list can
 * never miss an option the command accepts. Pure.
 */
import type { Options, OptionSpec } from './option-spec.js';

function flag(name: string, spec: OptionSpec): string {
  const short = spec.short ? `-${spec.short}, ` : '';
  return `${short}--${name}${spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''}`;
}

function details(name: string, spec: OptionSpec): string {
  const fallback = spec.fallback ?? (spec.type === 'boolean' ? 'off' : 'none');
  const example = spec.type === 'string' ? `--${name} ${/\s/.test(spec.example) ? `'${spec.example}'` : spec.example}` : `--${name}`;
  const repeat = spec.multiple ? '; repeatable' : '';
  return `(default: ${fallback}${repeat}; e.g. ${example})`;
}

/** One line per option, `--help` last. */
export function formatOptions(options: Options): string[] {
  const entries = Object.entries(options).sort(([a], [b]) => (a === 'help' ? 1 : b === 'help' ? -1 : 0));
  const width = Math.max(...entries.map(([name, spec]) => flag(name, spec).length));
  return entries.map(([name, spec]) => `  ${flag(name, spec).padEnd(width)}  ${spec.help} ${name === 'help' ? '' : details(name, spec)}`.trimEnd());
}

export function formatHelp(usage: string, options: Options): string {
  return `${usage}\n\nOptions:\n${formatOptions(options).join('\n')}`;
}
