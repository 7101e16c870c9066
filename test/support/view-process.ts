/** Starts `isobudget view --port 0` as a real process and resolves with the URL it prints. */
import { type ChildProcess, spawn } from 'node:child_process';
import { BIN } from './cli.js';

export function startView(cwd: string, args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'view', '--port', '0', ...args], { cwd, env: { PATH: process.env.PATH, HOME: cwd }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /isobudget view on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`view exited ${code}: ${err}`)));
  });
}
