import { parseCommand, UsageError } from '../../../src/cli/args';

describe('parseCommand', () => {
  test.each([
    [['create', 'my-server'], { command: 'create', dir: 'my-server', transport: 'stdio', force: false, install: true }],
    [
      ['create', 'x', '--transport', 'http', '--force', '--name', '@me/x', '--from', '../omc.tgz', '--no-install'],
      {
        command: 'create',
        dir: 'x',
        transport: 'http',
        force: true,
        name: '@me/x',
        from: '../omc.tgz',
        install: false,
      },
    ],
    [
      ['create', '--transport=http', 'x'],
      { command: 'create', dir: 'x', transport: 'http', force: false, install: true },
    ],
    [['add', 'tool', 'Weather'], { command: 'add', kind: 'tool', name: 'Weather' }],
    [['add', 'resource', 'Docs', '--cwd', 'proj'], { command: 'add', kind: 'resource', name: 'Docs', cwd: 'proj' }],
    [['add', 'resource-template', 'Book'], { command: 'add', kind: 'resource-template', name: 'Book' }],
    [['dev'], { command: 'dev', entry: 'dist/main.js', tsconfig: 'tsconfig.build.json' }],
    [
      ['dev', '--cwd', 'p', '--entry', 'out/server.js', '-p', 'tsconfig.json'],
      { command: 'dev', cwd: 'p', entry: 'out/server.js', tsconfig: 'tsconfig.json' },
    ],
    [['inspect'], { command: 'inspect', entry: 'dist/main.js', print: false }],
    [
      ['inspect', '--url', 'http://127.0.0.1:3000/mcp', '--print'],
      { command: 'inspect', entry: 'dist/main.js', print: true, url: 'http://127.0.0.1:3000/mcp' },
    ],
    [
      ['bridge', '--command', 'npx -y @modelcontextprotocol/server-everything', '--port', '0'],
      { command: 'bridge', upstreamCommand: 'npx -y @modelcontextprotocol/server-everything', port: 0, stdio: false, headers: [] },
    ],
    [
      ['bridge', '--url', 'https://h/mcp', '--stdio', '-H', 'Authorization: Bearer t', '--upstream-version', '2025-11-25'],
      {
        command: 'bridge',
        url: 'https://h/mcp',
        stdio: true,
        headers: ['Authorization: Bearer t'],
        upstreamVersion: '2025-11-25',
      },
    ],
    [
      ['bridge', '--url', 'http://h/mcp', '--max-list-items', '5000'],
      { command: 'bridge', url: 'http://h/mcp', stdio: false, headers: [], maxListItems: 5000 },
    ],
  ])('%j', (argv, expected) => {
    expect(parseCommand(argv)).toEqual(expected);
  });

  test.each([[[]], [['--help']], [['-h', 'create', 'x']], [['help']]])('%j prints the overview', (argv) => {
    const command = parseCommand(argv);
    expect(command).toEqual({
      command: 'help',
      text: expect.stringMatching(/^Usage: onemodelcontext \[options\] \[command\]/),
    });
    for (const name of ['create', 'add', 'dev', 'inspect', 'bridge'])
      expect(command.command === 'help' && command.text).toMatch(new RegExp(`^  ${name}`, 'm'));
  });

  test.each(['create', 'add', 'dev', 'inspect', 'bridge'])('%s has its own --help', (name) => {
    for (const argv of [[name, '--help'], ['help', name]]) {
      expect(parseCommand(argv)).toEqual({
        command: 'help',
        text: expect.stringMatching(new RegExp(`^Usage: onemodelcontext ${name} \\[options\\]`)),
      });
    }
  });

  test('--version prints the version it is given', () => {
    expect(parseCommand(['--version'], '1.2.3')).toEqual({ command: 'version', text: '1.2.3' });
  });

  test.each([
    [['launch'], /unknown command 'launch'/],
    [['creat', 'x'], /Did you mean create\?/],
    [['create'], /missing required argument 'dir'/],
    [['create', 'a', 'b'], /too many arguments for 'create'/],
    [['create', 'a', '--transport', 'ws'], /Allowed choices are stdio, http/],
    [['create', 'a', '--cwd', 'b'], /unknown option '--cwd'/],
    [['create', 'a', '--bogus'], /bogus/],
    [['add'], /missing required argument 'kind'/],
    [['add', 'widget', 'X'], /Allowed choices are tool, prompt, resource, resource-template/],
    [['add', 'tool'], /missing required argument 'Name'/],
    [['add', 'tool', 'A', 'B'], /too many arguments for 'add'/],
    [['add', 'tool', 'A', '--force'], /unknown option '--force'/],
    [['bridge'], /exactly one of --command or --url/],
    [['bridge', '--command', 'x', '--url', 'http://h'], /exactly one of --command or --url/],
    [['bridge', '--url', 'http://h', '--stdio', '--port', '3'], /--port or --stdio/],
    [['bridge', '--url', 'http://h', '--port', 'eighty'], /--port must be an integer/],
    [['bridge', '--url', 'http://h', '--upstream-version', '2024-01-01'], /Allowed choices are/],
    [['bridge', '--url', 'http://h', '--max-list-items', '0'], /--max-list-items must be an integer 1-100000/],
    [['bridge', '--url', 'http://h', '--max-list-items', '100001'], /--max-list-items must be an integer 1-100000/],
    [['bridge', '--url', 'http://h', '--max-list-items', 'lots'], /--max-list-items must be an integer/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseCommand(argv)).toThrow(UsageError);
    expect(() => parseCommand(argv)).toThrow(message);
  });
});
