/** The CLI entry: parse, dispatch, map failures to exit codes (0 ok, 1 user error, 2 usage). */
import { resolve } from 'node:path';
import { addComponent } from './add';
import { parseCommand, UsageError, USAGE } from './args';
import { createProject } from './create';
import { CliError, consoleOutput, type Output } from './output';
import { ownPackage } from './package-root';

export function runCli(argv: readonly string[], out: Output = consoleOutput): number {
  try {
    const command = parseCommand(argv);
    switch (command.command) {
      case 'help':
        out.info(USAGE.trimEnd());
        return 0;
      case 'version':
        out.info(ownPackage().version);
        return 0;
      case 'create':
        createProject(command, out);
        return 0;
      case 'add':
        addComponent({ kind: command.kind, name: command.name, projectDir: resolve(command.cwd ?? '.') }, out);
        return 0;
    }
  } catch (error) {
    if (error instanceof UsageError) {
      out.error(`error: ${error.message}\n`);
      out.error(USAGE.trimEnd());
      return 2;
    }
    if (error instanceof CliError) {
      out.error(`error: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
