/**
 * Command-line parsing with commander: argv in, one typed command (or a usage error) out; `--help` on every command.
 */
import { Argument, Command as Program, CommanderError, Option } from 'commander';
import { KINDS, type Kind } from './names';

export type Transport = 'stdio' | 'http';
const TRANSPORTS: readonly Transport[] = ['stdio', 'http'];

export interface CreateCommand {
  command: 'create';
  dir: string;
  transport: Transport;
  force: boolean;
  /** npm package name; defaults to one derived from the folder name. */
  name?: string;
  /** A tarball or folder of onemodelcontext to depend on instead of the published package. */
  from?: string;
  /** Run `npm install` in the new project (default on; `--no-install` skips it). */
  install: boolean;
}

export interface DevCommand {
  command: 'dev';
  cwd?: string;
  /** The compiled entry to run, relative to the project. */
  entry: string;
  tsconfig: string;
}

export interface InspectCommand {
  command: 'inspect';
  cwd?: string;
  /** Inspect a running HTTP server at this URL instead of spawning the stdio entry. */
  url?: string;
  entry: string;
  /** Print the command instead of running it. */
  print: boolean;
}

export interface BridgeCommand {
  command: 'bridge';
  /** The upstream's command line (stdio child). */
  upstreamCommand?: string;
  url?: string;
  port?: number;
  stdio: boolean;
  headers: string[];
  /** The revision to speak upstream (default auto: 2026-07-28 when the upstream has it). */
  upstreamVersion?: string;
  /** Items kept per upstream list (MountOptions.maxListItems; default 1000). */
  maxListItems?: number;
}

export type Command =
  | { command: 'help'; text: string }
  | { command: 'version'; text: string }
  | CreateCommand
  | { command: 'add'; kind: Kind; name: string; cwd?: string }
  | DevCommand
  | InspectCommand
  | BridgeCommand;

/** A mistake on the command line: printed with a pointer to `--help`, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const DEFAULT_ENTRY = 'dist/main.js';

function buildProgram(version: string, output: { text: string }, found: (command: Command) => void): Program {
  const program = new Program('onemodelcontext')
    .description('Scaffold, grow, run and inspect MCP servers built with onemodelcontext.')
    .version(version, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help (also: onemodelcontext <command> --help)')
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => void (output.text += text),
      writeErr: (text) => void (output.text += text),
      outputError: () => undefined,
    });

  program
    .command('create')
    .description('scaffold a new MCP server project in <dir> (must be empty unless --force), then install it')
    .argument('<dir>', 'folder to create the project in')
    .addOption(
      new Option('-t, --transport <transport>', 'how the server is reached').choices(TRANSPORTS).default('stdio'),
    )
    .option('-n, --name <package>', 'npm package name (default: from the folder name)')
    .option('-f, --force', 'write into a non-empty folder, replacing files with the same names', false)
    .option(
      '--from <tarball|folder>',
      'depend on this onemodelcontext build (a .tgz from npm pack, or a checkout) instead of the registry',
    )
    .option('--no-install', 'do not run npm install')
    .action(
      (dir: string, o: { transport: Transport; name?: string; force: boolean; from?: string; install: boolean }) => {
        found({
          command: 'create',
          dir,
          transport: o.transport,
          force: o.force,
          install: o.install,
          ...(o.name === undefined ? {} : { name: o.name }),
          ...(o.from === undefined ? {} : { from: o.from }),
        });
      },
    );

  program
    .command('add')
    .description('write src/<name>.<kind>.ts and its test, and register the class in src/app.ts')
    .addArgument(new Argument('<kind>', 'what to add').choices(KINDS))
    .argument('<Name>', 'PascalCase name, e.g. Weather')
    .option('--cwd <project>', 'the project folder (default: the current folder)')
    .action((kind: Kind, name: string, o: { cwd?: string }) => {
      found({ command: 'add', kind, name, ...(o.cwd === undefined ? {} : { cwd: o.cwd }) });
    });

  program
    .command('dev')
    .description(
      'rebuild with tsc on every change under src/ (decorator metadata kept), restart the server, print where it listens',
    )
    .option('--cwd <project>', 'the project folder (default: the current folder)')
    .option('--entry <file>', 'the compiled entry to run', DEFAULT_ENTRY)
    .option('-p, --tsconfig <file>', 'the tsconfig that builds the entry', 'tsconfig.build.json')
    .action((o: { cwd?: string; entry: string; tsconfig: string }) => {
      found({ command: 'dev', entry: o.entry, tsconfig: o.tsconfig, ...(o.cwd === undefined ? {} : { cwd: o.cwd }) });
    });

  program
    .command('inspect')
    .description(
      'open the MCP Inspector (npx @modelcontextprotocol/inspector) on the app: over stdio by default, or on a running HTTP server with --url',
    )
    .option('--cwd <project>', 'the project folder (default: the current folder)')
    .option('--url <url>', "a running server's Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp")
    .option('--entry <file>', 'the compiled stdio entry the Inspector starts', DEFAULT_ENTRY)
    .option('--print', 'print the command instead of running it', false)
    .action((o: { cwd?: string; url?: string; entry: string; print: boolean }) => {
      found({
        command: 'inspect',
        entry: o.entry,
        print: o.print,
        ...(o.cwd === undefined ? {} : { cwd: o.cwd }),
        ...(o.url === undefined ? {} : { url: o.url }),
      });
    });

  program
    .command('bridge')
    .description(
      'front one MCP server you do not own (--command for a stdio child, or --url) on both revisions, over HTTP (--port) or --stdio',
    )
    .option('--command <command line>', 'the upstream server to start, e.g. "npx -y @modelcontextprotocol/server-everything"')
    .option('--url <url>', "the upstream's Streamable HTTP endpoint")
    .option('--port <port>', 'HTTP port to serve on (default: PORT, else 3000)', parsePort)
    .option('--stdio', 'serve on stdin/stdout instead of HTTP', false)
    .option('-H, --header <name: value>', 'an HTTP header for the upstream (repeatable)', collect, [] as string[])
    .addOption(
      new Option('--upstream-version <revision>', 'the revision to speak upstream')
        .choices(['auto', '2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'])
        .default('auto'),
    )
    .option(
      '--max-list-items <n>',
      `items kept per upstream list (tools, prompts, resources, templates); the rest dropped and reported (1-${MAX_LIST_ITEMS}, default 1000)`,
      parseListItems,
    )
    .action((o: {
      command?: string;
      url?: string;
      port?: number;
      stdio: boolean;
      header: string[];
      upstreamVersion: string;
      maxListItems?: number;
    }) => {
      if ((o.command === undefined) === (o.url === undefined)) {
        throw new UsageError('bridge needs exactly one of --command or --url.');
      }
      if (o.stdio && o.port !== undefined) throw new UsageError('bridge takes --port or --stdio, not both.');
      found({
        command: 'bridge',
        stdio: o.stdio,
        headers: o.header,
        ...(o.upstreamVersion === 'auto' ? {} : { upstreamVersion: o.upstreamVersion }),
        ...(o.command === undefined ? {} : { upstreamCommand: o.command }),
        ...(o.url === undefined ? {} : { url: o.url }),
        ...(o.port === undefined ? {} : { port: o.port }),
        ...(o.maxListItems === undefined ? {} : { maxListItems: o.maxListItems }),
      });
    });

  return program;
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65_535) throw new UsageError(`--port must be an integer 0-65535, got ${value}`);
  return n;
}

/** MountOptions.maxListItems' bound (the CLI layer imports nothing of the library, so it is repeated here). */
const MAX_LIST_ITEMS = 100_000;

function parseListItems(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_LIST_ITEMS) {
    throw new UsageError(`--max-list-items must be an integer 1-${MAX_LIST_ITEMS}, got ${value}`);
  }
  return n;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function parseCommand(argv: readonly string[], version = '0.0.0'): Command {
  const output = { text: '' };
  let command: Command | undefined;
  const program = buildProgram(version, output, (c) => (command = c));
  if (argv.length === 0) return { command: 'help', text: program.helpInformation() };
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.version') return { command: 'version', text: output.text.trimEnd() };
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.help')
      return { command: 'help', text: output.text };
    throw new UsageError(error.message.replace(/^error: /, ''));
  }
  if (!command) throw new UsageError('No command given.');
  return command;
}
