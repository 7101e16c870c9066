/**
 * Files a unit needs that are code — tool modules, module scorers, `fixture_dir`, and project
 * files the command executor's argv names — must be on every worker at the same path relative to
 * the project root, with the same content. The submitter records each path's sha256; a worker
 * checks them all before its first unit of the run and refuses, naming the path, on any
 * difference. Absolute paths in the stored config are rebased from the submitter's root to
 * the worker's.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { IsobudgetError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import type { ExperimentConfig, ScorerConfig } from '../config/types.js';

export interface CodeFile {
  /** Relative to the project root, `/`-separated. */
  path: string;
  /** sha256 of the file, or of `relative-path\0sha256\n` lines of a folder's files, sorted. */
  sha256: string;
}

/** The code files a run of `config` needs, hashed; refuses a path outside `root`. */
export function collectCodeFiles(config: ExperimentConfig, root: string): CodeFile[] {
  const paths = new Set<string>();
  const scorerModule = (scorer: ScorerConfig | undefined): void => {
    if (scorer?.type === 'module') paths.add(scorer.module);
  };
  scorerModule(config.scorer);
  if (config.selector.type === 'verifier') scorerModule(config.selector.scorer);
  const executor = config.executor;
  if (executor.type === 'agent') for (const tool of executor.tools) if (tool.source.kind === 'module') paths.add(tool.source.module);
  if (executor.type === 'command') {
    if (executor.fixtureDir !== undefined) paths.add(executor.fixtureDir);
    const configDir = dirname(config.configPath);
    for (const arg of executor.argv) {
      const candidate = arg.split('{{config_dir}}').join(configDir);
      // Project files only: an interpreter (/usr/bin/node) is the machine's, not the run's.
      if (isAbsolute(candidate) && relativeTo(root, candidate) !== undefined && existsSync(candidate) && statSync(candidate).isFile()) paths.add(candidate);
    }
  }
  return [...paths].sort().map((absolute) => {
    const path = relativeTo(root, absolute);
    if (path === undefined) {
      throw new IsobudgetError('usage', `--distributed: ${absolute} is outside the project root ${root}; workers find code files by their path relative to it`, {
        hint: 'run isobudget from a folder that contains the experiment and every file it loads (tool modules, scorers, fixture_dir)',
      });
    }
    return { path, sha256: hashPath(absolute) };
  });
}

/** Refuses when a code file differs on this machine; the message names the first differing path. */
export function checkCodeFiles(files: readonly CodeFile[], root: string, runId: string): void {
  for (const file of files) {
    const absolute = join(root, ...file.path.split('/'));
    const actual = existsSync(absolute) ? hashPath(absolute) : undefined;
    if (actual === file.sha256) continue;
    throw new IsobudgetError('worker_code_mismatch', `run ${runId}: ${file.path} ${actual === undefined ? 'is missing on this worker' : 'differs on this worker (sha256 mismatch)'} (root ${root})`, {
      hint: 'check out the same commit as the submitter on this machine, or start the worker with --root pointing at that checkout',
    });
  }
}

/** Every string under `value` that starts with `from/` starts with `to/` instead (paths in the stored config). */
export function rebasePaths<T>(value: T, from: string, to: string): T {
  if (from === to) return value;
  const prefix = from.endsWith(sep) ? from : `${from}${sep}`;
  const target = to.endsWith(sep) ? to : `${to}${sep}`;
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return node === from ? to : node.startsWith(prefix) ? target + node.slice(prefix.length) : node;
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
    return node;
  };
  return walk(value) as T;
}

function relativeTo(root: string, absolute: string): string | undefined {
  const rel = relative(root, absolute);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

function hashPath(absolute: string): string {
  if (!statSync(absolute).isDirectory()) return sha256(readFileSync(absolute));
  const lines: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) lines.push(`${relative(absolute, full).split(sep).join('/')}\0${sha256(readFileSync(full))}\n`);
    }
  };
  walk(absolute);
  return sha256(lines.sort().join(''));
}
