import fc from 'fast-check';
import { FrameworkError } from '../../../src/errors/framework-error';
import { UriTemplate } from '../../../src/registry/uri-template';
import { compileMatcherProgram } from '../../../src/registry/uri-template/matcher-program';
import { parseTemplate } from '../../../src/registry/uri-template/parse-template';
import { runMatcher } from '../../../src/registry/uri-template/run-matcher';

/** The example variables of RFC 6570 §1.2 (associative `keys` left out: not supported). */
const rfcVariables = {
  var: 'value',
  hello: 'Hello World!',
  empty: '',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  x: '1024',
  y: '768',
};

describe('UriTemplate construction', () => {
  it('lists variable names in template order', () => {
    expect(new UriTemplate('repo://{owner}/{repo}{/path*}{?ref,depth:2}').variableNames).toEqual([
      'owner',
      'repo',
      'path',
      'ref',
      'depth',
    ]);
    expect(new UriTemplate('test://static').variableNames).toEqual([]);
  });

  it('keeps the template text', () => {
    const template = new UriTemplate('file:///{+path}');
    expect(template.template).toBe('file:///{+path}');
    expect(String(template)).toBe('file:///{+path}');
  });

  it('accepts dotted and pct-encoded variable names', () => {
    expect(new UriTemplate('{a.b}{%20c}').variableNames).toEqual(['a.b', '%20c']);
  });

  it.each([
    ['test://{id', 7, "'{' is never closed"],
    ['test://{}', 7, 'empty expression'],
    ['test://x}', 8, "'}' without a matching '{'"],
    ['test://{a{b}}', 9, 'cannot nest'],
    ['{a-b}', 2, 'invalid variable name "a-b"'],
    ['{a b}', 2, 'invalid variable name'],
    ['{.a..b}', 4, 'invalid variable name'],
    ['{a.}', 2, 'invalid variable name'],
    ['{%2}', 1, 'invalid variable name'],
    ['{=x}', 1, "operator '=' is reserved"],
    ['{|x}', 1, "operator '|' is reserved"],
    ['{$x}', 1, 'invalid variable name'],
    ['{?}', 2, "operator '?' has no variables"],
    ['{a,,b}', 3, 'empty variable name'],
    ['{a,}', 3, 'empty variable name'],
    ['{a:0}', 3, 'prefix length "0"'],
    ['{a:10000}', 3, 'prefix length "10000"'],
    ['{a:}', 3, 'prefix length ""'],
    ['{a:3*}', 3, 'prefix length "3*"'],
    ['{a*3}', 3, "unexpected text after '*'"],
    ['{a}/{a}', 4, 'variable "a" appears more than once'],
  ])('refuses %j at index %i', (template, index, problem) => {
    let thrown: unknown;
    try {
      new UriTemplate(template);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FrameworkError);
    expect((thrown as FrameworkError).code).toBe('OMC_INVALID_URI_TEMPLATE');
    expect((thrown as FrameworkError).message).toContain(`"${template}" at index ${index}:`);
    expect((thrown as FrameworkError).message).toContain(problem);
  });

  it('tells templates from plain URIs', () => {
    expect(UriTemplate.isTemplate('test://template/{id}/data')).toBe(true);
    expect(UriTemplate.isTemplate('weather://{city}/forecast{?days}')).toBe(true);
    expect(UriTemplate.isTemplate('test://static/resource')).toBe(false);
    expect(UriTemplate.isTemplate('test://{}')).toBe(false);
    expect(UriTemplate.isTemplate('test://}{')).toBe(false);
    expect(UriTemplate.isTemplate('test://{unclosed')).toBe(false);
  });
});

describe('UriTemplate.expand (RFC 6570 §1.2 examples)', () => {
  it.each([
    // Level 1
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
    // Level 2
    ['{+var}', 'value'],
    ['{+hello}', 'Hello%20World!'],
    ['{+path}/here', '/foo/bar/here'],
    ['here?ref={+path}', 'here?ref=/foo/bar'],
    ['X{#var}', 'X#value'],
    ['X{#hello}', 'X#Hello%20World!'],
    // Level 3
    ['map?{x,y}', 'map?1024,768'],
    ['{x,hello,y}', '1024,Hello%20World%21,768'],
    ['{+x,hello,y}', '1024,Hello%20World!,768'],
    ['{+path,x}/here', '/foo/bar,1024/here'],
    ['{#x,hello,y}', '#1024,Hello%20World!,768'],
    ['{#path,x}/here', '#/foo/bar,1024/here'],
    ['X{.var}', 'X.value'],
    ['X{.x,y}', 'X.1024.768'],
    ['{/var}', '/value'],
    ['{/var,x}/here', '/value/1024/here'],
    ['{;x,y}', ';x=1024;y=768'],
    ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{?x,y}', '?x=1024&y=768'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{&x,y,empty}', '&x=1024&y=768&empty='],
    // Level 4 (prefix and explode; the `keys` rows are left out)
    ['{var:3}', 'val'],
    ['{var:30}', 'value'],
    ['{list}', 'red,green,blue'],
    ['{list*}', 'red,green,blue'],
    ['{+path:6}/here', '/foo/b/here'],
    ['{#path:6}/here', '#/foo/b/here'],
    ['X{.list}', 'X.red,green,blue'],
    ['X{.list*}', 'X.red.green.blue'],
    ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
    ['{;list}', ';list=red,green,blue'],
    ['{;list*}', ';list=red;list=green;list=blue'],
    ['{?list}', '?list=red,green,blue'],
    ['{?list*}', '?list=red&list=green&list=blue'],
    ['{&list}', '&list=red,green,blue'],
    ['{&list*}', '&list=red&list=green&list=blue'],
  ])('%s → %s', (template, expected) => {
    expect(new UriTemplate(template).expand(rfcVariables)).toBe(expected);
  });

  it('omits undefined variables and empty lists, with their operator prefix', () => {
    const template = new UriTemplate('weather://{city}/forecast{?days,units}{/extra*}');
    expect(template.expand({ city: 'Paris' })).toBe('weather://Paris/forecast');
    expect(template.expand({ city: 'Paris', units: 'metric', extra: [] })).toBe(
      'weather://Paris/forecast?units=metric',
    );
  });

  it('stringifies numbers and booleans', () => {
    expect(new UriTemplate('{?days,live}').expand({ days: 3, live: true })).toBe('?days=3&live=true');
  });

  it('percent-encodes UTF-8 and never double-encodes in reserved expansion', () => {
    expect(new UriTemplate('{q}').expand({ q: 'café/ü 100%' })).toBe('caf%C3%A9%2F%C3%BC%20100%25');
    expect(new UriTemplate('{+q}').expand({ q: 'a%20b/c%zz' })).toBe('a%20b/c%25zz');
    expect(new UriTemplate('{q}').expand({ q: '😀' })).toBe('%F0%9F%98%80');
    expect(new UriTemplate('{q}').expand({ q: '\ud800' })).toBe('%EF%BF%BD');
  });

  it('refuses a prefix modifier on a list value, as RFC 6570 §2.4.1 requires', () => {
    expect(() => new UriTemplate('{list:2}').expand({ list: ['a'] })).toThrow(FrameworkError);
  });
});

describe('UriTemplate.match', () => {
  it.each<[string, string, Record<string, string | string[]>]>([
    ['test://template/{id}/data', 'test://template/42/data', { id: '42' }],
    ['file:///{+path}', 'file:///home/me/notes.txt', { path: 'home/me/notes.txt' }],
    [
      'weather://{city}/forecast{?days,units}',
      'weather://Paris/forecast?days=3&units=metric',
      { city: 'Paris', days: '3', units: 'metric' },
    ],
    [
      'weather://{city}/forecast{?days,units}',
      'weather://Paris/forecast?units=metric&days=3',
      { city: 'Paris', days: '3', units: 'metric' },
    ],
    [
      'weather://{city}/forecast{?days,units}',
      'weather://Paris/forecast?units=metric',
      { city: 'Paris', units: 'metric' },
    ],
    ['weather://{city}/forecast{?days,units}', 'weather://Paris/forecast', { city: 'Paris' }],
    [
      'repo://{owner}/{repo}{/path*}',
      'repo://octo/hello/src/lib/index.ts',
      { owner: 'octo', repo: 'hello', path: ['src', 'lib', 'index.ts'] },
    ],
    ['repo://{owner}/{repo}{/path*}', 'repo://octo/hello', { owner: 'octo', repo: 'hello' }],
    ['{+path}/x', '/a/x/b/x', { path: '/a/x/b' }],
    ['{/a}{/b}', '/one/two', { a: 'one', b: 'two' }],
    ['{?a}{&b}', '?a=1&b=2', { a: '1', b: '2' }],
    ['{?flag}', '?flag', { flag: '' }],
    ['{name}.{ext}', 'archive.tar.gz', { name: 'archive.tar', ext: 'gz' }],
  ])('%s matches %s', (template, uri, expected) => {
    expect(new UriTemplate(template).match(uri)).toEqual(expected);
  });

  // Each RFC §1.2 expansion matched back; the values are what the URI can tell (a non-exploded list is one string).
  it.each<[string, Record<string, string | string[]>]>([
    ['{var}', { var: 'value' }],
    ['{hello}', { hello: 'Hello World!' }],
    ['{+hello}', { hello: 'Hello World!' }],
    ['{+path}/here', { path: '/foo/bar' }],
    ['here?ref={+path}', { path: '/foo/bar' }],
    ['X{#hello}', { hello: 'Hello World!' }],
    ['map?{x,y}', { x: '1024', y: '768' }],
    ['{x,hello,y}', { x: '1024', hello: 'Hello World!', y: '768' }],
    ['{+x,hello,y}', { x: '1024', hello: 'Hello World!', y: '768' }],
    ['{+path,x}/here', { path: '/foo/bar', x: '1024' }],
    ['{#x,hello,y}', { x: '1024', hello: 'Hello World!', y: '768' }],
    ['{#path,x}/here', { path: '/foo/bar', x: '1024' }],
    ['X{.var}', { var: 'value' }],
    ['X{.x,y}', { x: '1024', y: '768' }],
    ['{/var,x}/here', { var: 'value', x: '1024' }],
    ['{;x,y,empty}', { x: '1024', y: '768', empty: '' }],
    ['{?x,y,empty}', { x: '1024', y: '768', empty: '' }],
    ['?fixed=yes{&x}', { x: '1024' }],
    ['{&x,y,empty}', { x: '1024', y: '768', empty: '' }],
    ['{var:3}', { var: 'val' }],
    ['{+path:6}/here', { path: '/foo/b' }],
    ['{list*}', { list: ['red', 'green', 'blue'] }],
    ['X{.list*}', { list: ['red', 'green', 'blue'] }],
    ['X{.list}', { list: 'red,green,blue' }],
    ['{/list*,path:4}', { list: ['red', 'green', 'blue'], path: '/foo' }],
    ['{;list*}', { list: ['red', 'green', 'blue'] }],
    ['{?list}', { list: 'red,green,blue' }],
    ['{?list*}', { list: ['red', 'green', 'blue'] }],
    ['{&list*}', { list: ['red', 'green', 'blue'] }],
  ])('matches the RFC expansion of %s', (text, expected) => {
    const template = new UriTemplate(text);
    expect(template.match(template.expand(rfcVariables))).toEqual(expected);
  });

  it.each([
    ['test://template/{id}/data', 'test://template/a/b/data', 'a simple value crossing /'],
    ['test://template/{id}/data', 'test://template//data', 'an empty simple value'],
    ['test://template/{id}/data', 'test://template/4?2/data', 'a simple value crossing ?'],
    ['test://template/{id}/data', 'test://template/4#2/data', 'a simple value crossing #'],
    ['test://template/{id}/data', 'test://template/4&2/data', 'a simple value crossing &'],
    ['test://template/{id}/data', 'test://template/4,2/data', 'a simple value crossing ,'],
    ['test://template/{id}/data', 'test://template/42/datum', 'a different trailing literal'],
    ['test://template/{id}/data', 'test://template/42/data/more', 'extra text after the template'],
    ['test://template/{id}/data', 'prefix-test://template/42/data', 'extra text before the template'],
    ['test://template/{id}/data', 'TEST://template/42/data', 'a literal differing in case'],
    ['{list}', 'red,green,blue', 'a comma in a simple value'],
    ['file:///{+path}', 'file:///', 'an empty reserved value'],
    ['file:///{+path}', 'file:///a?b', 'a reserved value crossing ?'],
    [
      'weather://{city}/forecast{?days,units}',
      'weather://Paris/forecast?days=1&days=2',
      'a non-exploded query name given twice',
    ],
    ['weather://{city}/forecast{?days,units}', 'weather://Paris/forecast?lang=fr', 'an unknown query name'],
    ['weather://{city}/forecast{?days,units}', 'weather://Paris/forecast?days=1#top', 'a fragment after the query'],
    ['{/a}', '/x/y', 'more segments than variables'],
    ['{var:3}', 'valu', 'a value longer than its prefix'],
    ['{id}', 'a%ZZb', 'invalid percent-encoding'],
    ['{id}', '%C3', 'a truncated UTF-8 sequence'],
  ])('%s does not match %s (%s)', (template, uri) => {
    expect(new UriTemplate(template).match(uri)).toBeUndefined();
  });

  it('percent-decodes every value', () => {
    expect(new UriTemplate('test://{name}').match('test://caf%C3%A9%20au%20lait')).toEqual({ name: 'café au lait' });
    expect(new UriTemplate('test://{name}').match('test://a%2Fb%3Fc')).toEqual({ name: 'a/b?c' });
    expect(new UriTemplate('test://{name}').match('test://%F0%9F%98%80')).toEqual({ name: '😀' });
    expect(new UriTemplate('{?q}').match('?q=a%26b%3Dc')).toEqual({ q: 'a&b=c' });
    expect(new UriTemplate('{/path*}').match('/a%2Fb/c%20d')).toEqual({ path: ['a/b', 'c d'] });
    expect(new UriTemplate('file:///{+path}').match('file:///my%20docs/r%C3%A9sum%C3%A9.pdf')).toEqual({
      path: 'my docs/résumé.pdf',
    });
  });

  it('stores a variable named __proto__ as an ordinary property', () => {
    const matched = new UriTemplate('{__proto__}').match('x');
    expect(Object.keys(matched ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(matched)).toBe(Object.prototype);
  });
});

describe('UriTemplate.match cannot be driven into catastrophic backtracking', () => {
  /** Runs the very matcher match() uses, returning the instructions it visited. */
  function matcherSteps(template: string, uri: string): { steps: number; programSize: number; matched: boolean } {
    const program = compileMatcherProgram(parseTemplate(template));
    const run = runMatcher(program, uri);
    return { steps: run.steps, programSize: program.instructions.length, matched: run.slots !== undefined };
  }

  const hostileInputs: Array<[string, (length: number) => string]> = [
    ['{/id*}', (length) => '/'.repeat(length) + '?'],
    ['{/id*}', (length) => '/a'.repeat(length / 2) + '#'],
    ['{?tags*}', (length) => '?tags=' + ','.repeat(length) + '#'],
    ['{?tags*}', (length) => '?' + 'tags=x&'.repeat(length / 7) + '#'],
    ['x{a}{b}{c}{d}y', (length) => 'x' + ','.repeat(length) + '!'],
    ['x{a}{b}{c}{d}y', (length) => 'x' + 'a'.repeat(length) + '!'],
    ['x{a}{b}{c}{d}y', (length) => 'x' + '/'.repeat(length) + '!'],
    ['{+a}{+b}{+c}/x', (length) => '/'.repeat(length) + '?'],
    ['{#a,b,c}', (length) => '#' + ','.repeat(length) + '#'],
    ['{.a*}{/b*}{;c*}', (length) => '.'.repeat(length) + '#'],
  ];

  it.each(hostileInputs)('%s stays linear on hostile input', (template, makeInput) => {
    const short = matcherSteps(template, makeInput(5_000));
    const long = matcherSteps(template, makeInput(50_000));
    expect(long.matched).toBe(false);
    // Each instruction is visited at most a few times per URI character...
    expect(long.steps).toBeLessThanOrEqual(3 * long.programSize * (makeInput(50_000).length + 1));
    // ...so ten times the input costs about ten times the work, not a hundred or 2^n.
    expect(long.steps).toBeLessThanOrEqual(11 * short.steps);
    expect(new UriTemplate(template).match(makeInput(50_000))).toBeUndefined();
  });

  it('still matches long legitimate input', () => {
    const segments = Array.from({ length: 10_000 }, (_, index) => `s${index}`);
    expect(new UriTemplate('repo://{owner}{/path*}').match(`repo://me/${segments.join('/')}`)).toEqual({
      owner: 'me',
      path: segments,
    });
  });
});

describe('UriTemplate round trip: match(expand(vars)) gives vars back', () => {
  const anyText = fc.string({ unit: 'binary', minLength: 1, maxLength: 20 });
  const anyTextOrEmpty = fc.string({ unit: 'binary', maxLength: 20 });

  it.each(['{a}', 'test://items/{a}/sub/{b}', 'test://{a}:{b}', 'x{a}{?b}'])('for level-1 values in %s', (text) => {
    const template = new UriTemplate(text);
    fc.assert(
      fc.property(anyText, anyText, (a, b) => {
        const variables = Object.fromEntries(template.variableNames.map((name) => [name, name === 'a' ? a : b]));
        expect(template.match(template.expand(variables))).toEqual(variables);
      }),
    );
  });

  it('for optional query values in any subset', () => {
    const template = new UriTemplate('search://{index}{?q,lang,page}');
    fc.assert(
      fc.property(
        anyText,
        fc.record({ q: anyTextOrEmpty, lang: anyTextOrEmpty, page: anyTextOrEmpty }, { requiredKeys: [] }),
        (index, query) => {
          const variables = { index, ...query };
          expect(template.match(template.expand(variables))).toEqual(variables);
        },
      ),
    );
  });

  it('for exploded path segments', () => {
    const template = new UriTemplate('repo://{owner}{/path*}');
    fc.assert(
      fc.property(anyText, fc.array(anyTextOrEmpty, { minLength: 1, maxLength: 8 }), (owner, path) => {
        expect(template.match(template.expand({ owner, path }))).toEqual({ owner, path });
      }),
    );
  });
});
