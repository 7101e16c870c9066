import { describe, expect, test } from 'vitest';
import { agentEnv } from './agent-env.js';
import { renderArgv } from './argv-template.js';

describe('renderArgv', () => {
  test('placeholders inside arguments; shell syntax stays one inert argument; unknown ones are left', () => {
    const input = 'say "hi"; $(rm -rf /) `id`\nline 2';
    expect(renderArgv(['claude', '-p', '{{input}}', '--model={{ model }}', '{{nope}}'], { input, model: 'opus' })).toEqual(['claude', '-p', input, '--model=opus', '{{nope}}']);
  });
});

describe('agentEnv', () => {
  const base = {
    inherit: ['MY_TOOL_HOME'], extra: { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', ANTHROPIC_BASE_URL: 'https://overridden.example' }, gatewayUrl: 'http://127.0.0.1:5000', virtualKey: 'ibk-x',
    budget: 250, caseId: 'c1', path: 3, n: 8, arm: 'candidate_best_of_8', model: 'm', workdir: '/w', inputFile: '/m/input.txt', systemPromptFile: '/m/system-prompt.md',
  };
  test('a minimal base, what the experiment adds, then the gateway over everything', () => {
    const env = agentEnv(base, { PATH: '/bin', HOME: '/home/u', MY_TOOL_HOME: '/t', OPENAI_API_KEY: 'sk-real', ANTHROPIC_API_KEY: 'sk-ant-real', SECRET: 's' });
    expect(env).toMatchObject({
      PATH: '/bin', HOME: '/home/u', MY_TOOL_HOME: '/t', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:5000', ANTHROPIC_AUTH_TOKEN: 'ibk-x', OPENAI_BASE_URL: 'http://127.0.0.1:5000/v1', OPENAI_API_KEY: 'ibk-x',
      ISOBUDGET_API_KEY: 'ibk-x', ISOBUDGET_BUDGET_TOKENS: '250', ISOBUDGET_PATH: '3', ISOBUDGET_N: '8',
    });
    expect(env).not.toHaveProperty('ANTHROPIC_API_KEY');
    expect(env).not.toHaveProperty('SECRET');
    expect(JSON.stringify(env)).not.toContain('sk-');
  });
});
