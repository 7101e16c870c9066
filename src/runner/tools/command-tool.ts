/**
 * A tool that is a command: the argv runs without a shell, the arguments JSON is appended as
 * the last argument (and given as ISOBUDGET_TOOL_ARGS), stdout is the result. Exit ≠ 0,
 * signals, timeouts and missing binaries are failed results. On timeout the whole process
 * group is killed (`runProcess`), so a tool that forks leaves nothing behind.
 *
 * The child gets a minimal environment, never ours: ours holds provider API keys
 * (DESIGN §1, invariant 6).
 */
import type { ToolConfig } from '../../config/types.js';
import { runProcess } from '../../scorers/run-process.js';
import { MAX_RESULT_BYTES } from './limits.js';
import { abortMessage } from './module-tool.js';
import type { Tool, ToolInvocation, ToolResult } from './spec.js';

const INHERITED_ENV = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'TEMP', 'TMP', 'SYSTEMROOT', 'NODE_PATH', 'PYTHONPATH', 'VIRTUAL_ENV'];

export function commandTool(config: ToolConfig, argv: readonly string[]): Tool {
  return {
    definition: { name: config.name, description: config.description, parameters: config.parameters },
    async run(invocation: ToolInvocation): Promise<ToolResult> {
      const argsJson = JSON.stringify(invocation.args);
      const env: NodeJS.ProcessEnv = { ISOBUDGET_TOOL_NAME: config.name, ISOBUDGET_TOOL_ARGS: argsJson, ISOBUDGET_CASE_ID: invocation.caseId };
      for (const name of INHERITED_ENV) if (process.env[name] !== undefined) env[name] = process.env[name];
      const result = await runProcess({ argv: [...argv, argsJson], timeoutMs: invocation.timeoutMs, env, captureBytes: MAX_RESULT_BYTES + 1, signal: invocation.signal });
      const program = argv[0] ?? '';
      switch (result.kind) {
        case 'exited':
          if (result.exitCode === 0) return { ok: true, text: result.stdout.replace(/\r?\n$/, '') };
          return { ok: false, error: `${program} exited with ${result.exitCode}${firstLine(result.stderr || result.stdout)}` };
        case 'signaled':
          return { ok: false, error: `${program} was killed by ${result.signal}` };
        case 'timeout':
          return { ok: false, error: `timed out after ${invocation.timeoutMs} ms` };
        case 'aborted':
          return { ok: false, error: abortMessage(invocation) };
        case 'spawn_error':
          return { ok: false, error: `cannot run ${program}: ${result.message}` };
      }
    },
  };
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line === '' ? '' : `: ${line.slice(0, 300)}`;
}
