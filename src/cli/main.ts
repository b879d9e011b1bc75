/** The CLI entry: parse, dispatch, map failures to exit codes (0 ok, 1 user error, 2 usage). */
import { resolve } from 'node:path';
import { addComponent } from './add';
import { parseCommand, UsageError } from './args';
import { createProject } from './create';
import { runBridgeCommand } from './bridge';
import { runDev } from './dev';
import { runInspector } from './inspect';
import { CliError, consoleOutput, type Output } from './output';
import { ownPackage } from './package-root';

export async function runCli(argv: readonly string[], out: Output = consoleOutput): Promise<number> {
  try {
    const command = parseCommand(argv, ownPackage().version);
    switch (command.command) {
      case 'help':
      case 'version':
        out.info(command.text.trimEnd());
        return 0;
      case 'create':
        await createProject(command, out);
        return 0;
      case 'add':
        addComponent({ kind: command.kind, name: command.name, projectDir: resolve(command.cwd ?? '.') }, out);
        return 0;
      case 'dev':
        // stdout may be the server's MCP channel (stdio): everything dev says goes to stderr.
        return await runDev(command, resolve(command.cwd ?? '.'), { info: out.error, error: out.error });
      case 'inspect':
        return await runInspector(command, resolve(command.cwd ?? '.'), out);
      case 'bridge':
        // On --stdio, stdout is the MCP channel: everything the bridge says goes to stderr.
        return await runBridgeCommand(command, { info: out.error, error: out.error });
    }
  } catch (error) {
    if (error instanceof UsageError) {
      out.error(`error: ${error.message}`);
      out.error('Run `onemodelcontext --help` (or `onemodelcontext <command> --help`) for usage.');
      return 2;
    }
    if (error instanceof CliError) {
      out.error(`error: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
