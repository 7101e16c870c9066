/**
 * `validate` checks the command executor's program exists (issue 25, item 6): before, a
 * missing `claude` ran every path and reported each as a provider error with a $0 cost.
 */
import { expect, test } from 'vitest';
import { runCli } from './support/cli.js';
import { writeExperiment } from './support/experiment.js';

const validate = (argv: string[]) => {
  const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 2, extra: `executor: { type: command, argv: ${JSON.stringify(argv)} }` });
  return runCli(['validate', experiment.configPath]);
};

test.each([
  { argv: ['isobudget-no-such-agent-xyz', '-p', '{{input}}'], message: 'command not found: isobudget-no-such-agent-xyz (not on PATH)' },
  { argv: ['/nonexistent/agent', '{{input}}'], message: '/nonexistent/agent: no executable file at /nonexistent/agent' },
  { argv: ['./agent.sh', '{{input}}'], message: 'a relative path is resolved in each path\'s fresh working directory' },
])('a missing program is an error naming the key: $argv.0', async ({ argv, message }) => {
  const result = await validate(argv);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('executor.argv[0]');
  expect(result.stderr).toContain(message);
});

test('a program on PATH, or an absolute path to one, passes', async () => {
  expect((await validate(['node', '-e', '1', '{{input}}'])).code).toBe(0);
  expect((await validate([process.execPath, '-e', '1', '{{input}}'])).code).toBe(0);
});
