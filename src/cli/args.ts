/** Command-line parsing with node:util parseArgs: argv in, one typed command (or a usage error) out. */
import { parseArgs } from 'node:util';
import { KINDS, type Kind } from './names';

export type Transport = 'stdio' | 'http';

export type Command =
  | { command: 'help' }
  | { command: 'version' }
  | { command: 'create'; dir: string; transport: Transport; force: boolean; name?: string }
  | { command: 'add'; kind: Kind; name: string; cwd?: string };

/** A mistake on the command line: printed with the usage text, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage:
  onemodelcontext create <dir> [--transport stdio|http] [--name <package>] [--force]
  onemodelcontext add tool|prompt|resource <Name> [--cwd <project>]
  onemodelcontext --help | --version

create   scaffolds a new MCP server project in <dir> (must be empty unless --force)
add      writes src/<name>.<kind>.ts and its test, and registers the class in src/app.ts
`;

export function parseCommand(argv: readonly string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        transport: { type: 'string', short: 't' },
        force: { type: 'boolean', short: 'f' },
        name: { type: 'string', short: 'n' },
        cwd: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  if (values.version) return { command: 'version' };

  const [command, ...rest] = positionals;
  switch (command) {
    case undefined:
    case 'help':
      return { command: 'help' };
    case 'create':
      return parseCreate(rest, values);
    case 'add':
      return parseAdd(rest, values);
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

type Values = { transport?: string; force?: boolean; name?: string; cwd?: string };

function parseCreate(rest: string[], values: Values): Command {
  if (values.cwd !== undefined) throw new UsageError('--cwd belongs to `add`; for `create` give the folder as <dir>.');
  if (rest.length !== 1) throw new UsageError('create needs exactly one folder: onemodelcontext create <dir>');
  const transport = values.transport ?? 'stdio';
  if (transport !== 'stdio' && transport !== 'http') {
    throw new UsageError(`--transport must be stdio or http (got "${transport}").`);
  }
  const command: Command = { command: 'create', dir: rest[0]!, transport, force: values.force === true };
  return values.name === undefined ? command : { ...command, name: values.name };
}

function parseAdd(rest: string[], values: Values): Command {
  for (const flag of ['transport', 'force', 'name'] as const) {
    if (values[flag] !== undefined) throw new UsageError(`--${flag} belongs to \`create\`, not \`add\`.`);
  }
  const [kind, name, ...extra] = rest;
  if (!kind || !(KINDS as readonly string[]).includes(kind)) {
    throw new UsageError(`add needs what to add: ${KINDS.join(', ')} (e.g. onemodelcontext add tool Weather).`);
  }
  if (!name) throw new UsageError(`add ${kind} needs a PascalCase name (e.g. onemodelcontext add ${kind} Weather).`);
  if (extra.length > 0) throw new UsageError(`Unexpected arguments: ${extra.join(' ')}`);
  const command: Command = { command: 'add', kind: kind as Kind, name };
  return values.cwd === undefined ? command : { ...command, cwd: values.cwd };
}
