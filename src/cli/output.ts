/** Where the CLI writes: injected so tests can capture it. */
export interface Output {
  info(line: string): void;
  error(line: string): void;
}

export const consoleOutput: Output = {
  info: (line) => process.stdout.write(`${line}\n`),
  error: (line) => process.stderr.write(`${line}\n`),
};

/** A mistake the user can fix (bad name, folder not empty, file exists): printed without a stack, exit 1. */
export class CliError extends Error {
  override readonly name = 'CliError';
}
