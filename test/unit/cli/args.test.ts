import { parseCommand, UsageError } from '../../../src/cli/args';

describe('parseCommand', () => {
  test.each([
    [[], { command: 'help' }],
    [['--help'], { command: 'help' }],
    [['-h', 'create', 'x'], { command: 'help' }],
    [['--version'], { command: 'version' }],
    [['create', 'my-server'], { command: 'create', dir: 'my-server', transport: 'stdio', force: false }],
    [['create', 'x', '--transport', 'http', '--force', '--name', '@me/x'], { command: 'create', dir: 'x', transport: 'http', force: true, name: '@me/x' }],
    [['create', '--transport=http', 'x'], { command: 'create', dir: 'x', transport: 'http', force: false }],
    [['add', 'tool', 'Weather'], { command: 'add', kind: 'tool', name: 'Weather' }],
    [['add', 'resource', 'Docs', '--cwd', 'proj'], { command: 'add', kind: 'resource', name: 'Docs', cwd: 'proj' }],
  ])('%j', (argv, expected) => {
    expect(parseCommand(argv)).toEqual(expected);
  });

  test.each([
    [['launch'], /Unknown command "launch"/],
    [['create'], /exactly one folder/],
    [['create', 'a', 'b'], /exactly one folder/],
    [['create', 'a', '--transport', 'ws'], /--transport must be stdio or http/],
    [['create', 'a', '--cwd', 'b'], /--cwd belongs to `add`/],
    [['create', 'a', '--bogus'], /bogus/],
    [['add'], /add needs what to add/],
    [['add', 'widget', 'X'], /add needs what to add/],
    [['add', 'tool'], /needs a PascalCase name/],
    [['add', 'tool', 'A', 'B'], /Unexpected arguments: B/],
    [['add', 'tool', 'A', '--force'], /--force belongs to `create`/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseCommand(argv)).toThrow(UsageError);
    expect(() => parseCommand(argv)).toThrow(message);
  });
});
