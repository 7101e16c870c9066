import { analyzeCommand } from './analyze.js';
import { attributeCommand } from './attribute.js';
import { calibrateCommand } from './calibrate.js';
import { clientsCommand } from './clients.js';
import { doctorCommand } from './doctor.js';
import { gatewayCommand } from './gateway.js';
import { ledgerCommand } from './ledger.js';
import { runCommand } from './run.js';
import { schemaCommand } from './schema.js';
import { simCommand } from './sim.js';
import type { CommandSpec } from './spec.js';
import { validateCommand } from './validate.js';

export const commands: Record<string, CommandSpec> = {
  run: runCommand,
  analyze: analyzeCommand,
  attribute: attributeCommand,
  validate: validateCommand,
  schema: schemaCommand,
  doctor: doctorCommand,
  ledger: ledgerCommand,
  sim: simCommand,
  calibrate: calibrateCommand,
  gateway: gatewayCommand,
  clients: clientsCommand,
};
