/** `isobudget gateway` as a real process (the built CLI), for crash, disk and lock tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './cli.js';

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** SIGTERM (a clean stop) or SIGKILL; resolves once it exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts a gateway and resolves once it listens (or rejects with what it printed when it exits first). */
export function startGatewayProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [BIN, 'gateway', '--port', '0', ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (): void => {
      const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
      if (url === undefined) return;
      child.stdout.off('data', onData);
      resolve({
        url, child,
        output: () => text,
        stop: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`gateway exited (${code ?? signal}) before listening: ${text}`)));
  });
}
