import { analyzeCommand } from './analyze.js';
import { attributeCommand } from './attribute.js';
import { auditCommand } from './audit.js';
import { calibrateCommand } from './calibrate.js';
import { canaryCommand } from './canary.js';
import { clientsCommand } from './clients.js';
import { compareCommand } from './compare.js';
import { doctorCommand } from './doctor.js';
import { gatewayCommand } from './gateway.js';
import { gateCommand } from './gate.js';
import { ledgerCommand } from './ledger.js';
import { memoryCommand } from './memory.js';
import { runCommand } from './run.js';
import { reportCommand } from './report.js';
import { reviewCommand } from './review.js';
import { schemaCommand } from './schema.js';
import { simCommand } from './sim.js';
import type { CommandSpec } from './spec.js';
import { validateCommand } from './validate.js';

export const commands: Record<string, CommandSpec> = {
  run: runCommand,
  analyze: analyzeCommand,
  report: reportCommand,
  compare: compareCommand,
  canary: canaryCommand,
  audit: auditCommand,
  attribute: attributeCommand,
  validate: validateCommand,
  schema: schemaCommand,
  doctor: doctorCommand,
  ledger: ledgerCommand,
  sim: simCommand,
  calibrate: calibrateCommand,
  gateway: gatewayCommand,
  clients: clientsCommand,
  memory: memoryCommand,
  gate: gateCommand,
  review: reviewCommand,
};
