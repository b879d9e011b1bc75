import { resolveMountOptions } from '../../../src/bridge/mount-options';
import { NamespaceMap } from '../../../src/bridge/mounted-items';
import { splitCommandLine } from '../../../src/bridge/serve-bridge';

describe('MountOptions', () => {
  test('defaults, frozen', () => {
    const o = resolveMountOptions({ namespace: 'gh', command: 'gh-mcp' });
    expect(o).toMatchObject({ prefixNames: true, protocolVersion: 'auto', maxParkedPerPrincipal: 16 });
    expect(Object.isFrozen(o)).toBe(true);
  });
  test.each([
    [{ namespace: 'gh' }, /exactly one of command/],
    [{ namespace: 'gh', command: 'x', url: 'http://h/mcp' }, /exactly one of command/],
    [{ namespace: '9lives', command: 'x' }, /namespace/],
    [{ namespace: 'gh', url: 'ftp://h' }, /url/],
    [{ namespace: 'gh', command: 'x', parkTimout: 5 }, /parkTimeoutMs/],
    [{ namespace: 'gh', command: 'x', restartMinMs: 500, restartMaxMs: 100 }, /restartMaxMs/],
  ])('%j is refused', (input, message) => {
    expect(() => resolveMountOptions(input as never)).toThrow(message);
  });
});

test('NamespaceMap: names prefixed, URIs given a scheme of their own, and back', () => {
  const ns = new NamespaceMap('gh');
  expect(ns.name('create_issue')).toBe('gh_create_issue');
  expect(ns.uri('demo://a/b')).toBe('gh+demo://a/b');
  expect(ns.upstreamUri('gh+demo://a/b')).toBe('demo://a/b');
  const plain = new NamespaceMap('gh', false);
  expect(plain.name('x')).toBe('x');
  expect(plain.uri('demo://a')).toBe('demo://a');
});

test('splitCommandLine: quotes group words, nothing is expanded', () => {
  expect(splitCommandLine('npx -y @modelcontextprotocol/server-everything')).toEqual([
    'npx',
    '-y',
    '@modelcontextprotocol/server-everything',
  ]);
  expect(splitCommandLine(`"/opt/my node" 'a b' c"d e"f $HOME`)).toEqual(['/opt/my node', 'a b', 'cd ef', '$HOME']);
  expect(splitCommandLine('  ')).toEqual([]);
});
