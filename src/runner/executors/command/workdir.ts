/**
 * A fresh directory per path: `work/` (a copy of the fixture folder, where the agent runs)
 * and, beside it, `meta/` (the case input and system prompt as files) — kept out of `work/`
 * so the agent's own view of its project holds nothing it did not bring.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PathDirs {
  root: string;
  workdir: string;
  inputFile: string;
  systemPromptFile: string;
}

export async function preparePathDirs(fixtureDir: string | undefined, input: string, systemPrompt: string): Promise<PathDirs> {
  const root = await mkdtemp(join(tmpdir(), 'isobudget-agent-'));
  const workdir = join(root, 'work');
  if (fixtureDir === undefined) await mkdir(workdir);
  else await cp(fixtureDir, workdir, { recursive: true, verbatimSymlinks: true });
  await mkdir(join(root, 'meta'));
  const inputFile = join(root, 'meta', 'input.txt');
  const systemPromptFile = join(root, 'meta', 'system-prompt.md');
  await writeFile(inputFile, input, 'utf8');
  await writeFile(systemPromptFile, systemPrompt, 'utf8');
  return { root, workdir, inputFile, systemPromptFile };
}

export async function removePathDirs(dirs: PathDirs): Promise<void> {
  await rm(dirs.root, { recursive: true, force: true });
}
