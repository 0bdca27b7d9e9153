// The `senseact` command as its own process, run from the sources (bin/senseact.js runs the
// compiled copy of the same `main`): for tests of what only a real process shows, such as
// its standard output being closed early by a pipe.
import { main } from '../../../src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
