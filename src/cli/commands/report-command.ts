import * as path from 'node:path';
import { writeBenchReport } from '../../bench/write-bench-report.js';
import { exitCodes } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';

/**
 * `senseact report <run-dir>`: writes `<run-dir>/report.html` (and `report-assets/`)
 * from a bench output dir alone, and prints its path and size.
 */
export const reportCommand: CommandRegistration = (program, io, setExitCode) => {
  program
    .command('report')
    .description('Write one static HTML report (plus an assets folder) for a bench output dir, from its results.json and trace folders.')
    .argument('<run-dir>', 'output dir of a senseact bench run (holds results.json)')
    .action(async (runDir: string) => {
      const report = await writeBenchReport(path.resolve(io.cwd, runDir));
      io.stdout(`report: ${report.htmlFile}\n`);
      for (const refused of report.refusedRuns) io.stderr(`senseact report: ${refused}\n`);
      io.stdout(`${report.htmlBytes} bytes of HTML, ${report.assetFiles} images (${report.assetBytes} bytes) in ${report.assetsDir}\n`);
      setExitCode(exitCodes.ok);
    });
};
