/** `isobudget sim serve --port P` — the simulator on 127.0.0.1, speaking three protocols. */
import { IsobudgetError } from '../../core/errors.js';
import { listenError } from '../../core/listen-error.js';
import { SIM_BILLINGS, type SimBilling } from '../../providers/sim/foreign-tokenizer.js';
import { startSimServer } from '../../providers/sim/index.js';
import { intOption, parseCommandArgs, portOption, scaleOption, unknownSubcommand } from '../args.js';
import { SEED_OPTION } from '../common-options.js';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';

const USAGE = 'isobudget sim serve [--port P] [--host 127.0.0.1] [--seed S] [--latency-scale X] [--reject-native-n] [--profile o200k|foreign-tokenizer]';

export const simCommand: CommandSpec = {
  summary: 'sim serve: the embedded simulator as an OpenAI chat/responses + Anthropic messages server',
  async run(argv, io) {
    const { positionals, values } = parseCommandArgs('sim', argv, {
      port: { type: 'string', value: 'P', help: 'the port to listen on (0: any free one, printed)', fallback: '0', example: '8787' },
      host: { type: 'string', value: 'HOST', help: 'a loopback address to listen on', fallback: '127.0.0.1', example: '::1' },
      seed: { ...SEED_OPTION, help: 'the simulator\'s seed', fallback: '0' },
      'latency-scale': { type: 'string', value: 'X', help: 'multiply the simulated latencies (0 answers at once)', fallback: '0', example: '1' },
      'reject-native-n': { type: 'boolean', help: 'answer requests with n > 1 with an error, like providers without native n' },
      profile: { type: 'string', value: 'NAME', help: 'how prompts are billed: o200k, or foreign-tokenizer (~1.4–1.5× o200k, to test estimators offline)', fallback: 'o200k', example: 'foreign-tokenizer' },
    }, USAGE);
    if (positionals[0] !== 'serve') throw unknownSubcommand('sim', positionals[0], ['serve'], USAGE);
    const host = values.host ?? '127.0.0.1';
    if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
      throw new IsobudgetError('usage', `sim serve binds loopback only, got --host ${host}`, { hint: 'the simulator is a local test double; use 127.0.0.1' });
    }
    const port = portOption('port', values.port) ?? 0;
    const billing = values.profile ?? 'o200k';
    if (!isSimBilling(billing)) throw new IsobudgetError('usage', `--profile ${billing} is not a billing profile`, { hint: `use one of: ${SIM_BILLINGS.join(', ')}` });
    const server = await startSimServer({
      host,
      port,
      seed: intOption('seed', values.seed) ?? 0,
      latencyScale: scaleOption('latency-scale', values['latency-scale']) ?? 0,
      rejectNativeN: values['reject-native-n'] === true,
      billing,
    }).catch((error: unknown) => {
      throw listenError(error, { host, port }) ?? error;
    });
    io.stdout.write(`isobudget sim listening on ${server.url}\n  OpenAI base URL:    ${server.url}/v1\n  Anthropic base URL: ${server.url}\n`);
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await server.close();
    return EXIT.ok;
  },
};

function isSimBilling(value: string): value is SimBilling {
  return (SIM_BILLINGS as readonly string[]).includes(value);
}
