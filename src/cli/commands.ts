import type { CommandRegistration } from './command-registration.js';
import { checkCommand } from './commands/check-command.js';
import { debugCommand } from './commands/debug-command.js';
import { diffCommand } from './commands/diff-command.js';
import { registerInspectCommand } from './commands/inspect-command.js';
import { cassetteCommand } from './commands/cassette-command.js';
import { modelsCommand } from './commands/models-command.js';
import { reportCommand } from './commands/report-command.js';
import { actCommand } from './commands/act-command.js';
import { devicesCommand } from './commands/devices-command.js';
import { observeCommand } from './commands/observe-command.js';
import { createParallelBenchExecutor } from '../bench/worker-pool-executor.js';
import { createBenchCommand } from './commands/bench-command.js';
import { droidTaskCommand } from './commands/droidtask-command.js';
import { verifyReplayCommand } from './commands/verify-replay-command.js';
import { skillsCommand } from './commands/skills-command.js';
import { memoryCommand } from './commands/memory-command.js';
import { mcpCommand } from './commands/mcp-command.js';
import { exportCommand } from './commands/export-command.js';


/** Every command of `senseact`, in help order. Each lives in `commands/<name>-command.ts`. */
export const commandRegistrations: CommandRegistration[] = [createBenchCommand({ createExecutor: createParallelBenchExecutor }), droidTaskCommand, verifyReplayCommand, skillsCommand, exportCommand, registerInspectCommand, reportCommand, debugCommand, diffCommand, checkCommand, devicesCommand, observeCommand, actCommand, modelsCommand, cassetteCommand, memoryCommand, mcpCommand];
