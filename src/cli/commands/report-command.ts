import * as path from 'node:path';
import { writeBenchReport } from '../../bench/write-bench-report.js';
import { exitCodes } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';

/**
 * `senseact report <run-dir>`: writes `<run-dir>/report.html` (the summary) and
 * `<run-dir>/report/` (one page per run) from a bench output dir alone, and prints
 * their paths and sizes.
 */
export const reportCommand: CommandRegistration = (program, io, setExitCode) => {
  program
    .command('report')
    .description('Write the static HTML report of a bench output dir (a summary page and one page per run), from its results.json and trace folders.')
    .argument('<run-dir>', 'output dir of a senseact bench run (holds results.json)')
    .action(async (runDir: string) => {
      const report = await writeBenchReport(path.resolve(io.cwd, runDir));
      io.stdout(`report: ${report.htmlFile}\n`);
      for (const refused of report.refusedRuns) io.stderr(`senseact report: ${refused}\n`);
      io.stdout(`summary ${report.summaryBytes} bytes; ${report.runPages} run pages in ${report.pagesDir} (${report.runPageBytes} bytes, largest ${report.largestRunPage?.bytes ?? 0}); ${report.screenshots} screenshots linked from the run folders\n`);
      setExitCode(exitCodes.ok);
    });
};
