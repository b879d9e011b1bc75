import { join } from 'node:path';
import { assertSingleLibraryCopies, duplicateLibraryProblem, loadedCopies } from '../../../src/app/library-copies';
import { FrameworkError } from '../../../src/errors/framework-error';
import { McpApplication } from '../../../src/index';

const app = join('/srv', 'app', 'node_modules');
const ours = join(app, 'onemodelcontext');
const files = (...paths: string[][]) => paths.map((p) => join(...p));

describe('loadedCopies', () => {
  test('one folder per copy, nested copies included, other packages ignored', () => {
    const loaded = files(
      [app, 'tsyringe', 'dist', 'cjs', 'index.js'],
      [app, 'tsyringe', 'dist', 'cjs', 'dependency-container.js'],
      [ours, 'node_modules', 'tsyringe', 'dist', 'cjs', 'index.js'],
      [app, 'tsyringe-extra', 'index.js'],
      [app, '@scope', 'tsyringe', 'index.js'],
    );
    expect(loadedCopies('tsyringe', loaded)).toEqual(
      [join(ours, 'node_modules', 'tsyringe'), join(app, 'tsyringe')].sort(),
    );
  });
});

describe('duplicateLibraryProblem', () => {
  test('one copy of each is fine', () => {
    expect(
      duplicateLibraryProblem(
        files(
          [app, 'tsyringe', 'index.js'],
          [app, 'class-transformer', 'cjs', 'index.js'],
          [ours, 'dist', 'cjs', 'index.js'],
        ),
      ),
    ).toBeUndefined();
  });

  test('two copies of class-transformer: the message names the library, both folders and the fix', () => {
    const problem = duplicateLibraryProblem(
      files(
        [app, 'class-transformer', 'cjs', 'index.js'],
        [ours, 'node_modules', 'class-transformer', 'cjs', 'index.js'],
      ),
    );
    expect(problem).toContain('2 copies of class-transformer are loaded');
    expect(problem).toContain(join(ours, 'node_modules', 'class-transformer'));
    expect(problem).toContain('npm dedupe');
  });

  test('assertSingleLibraryCopies throws OMC_DUPLICATE_LIBRARY', () => {
    const twice = files([app, 'tsyringe', 'index.js'], [ours, 'node_modules', 'tsyringe', 'index.js']);
    expect(() => assertSingleLibraryCopies(twice)).toThrow(FrameworkError);
    expect(() => assertSingleLibraryCopies(twice)).toThrow(/OMC_DUPLICATE_LIBRARY.*2 copies of tsyringe/);
  });
});

test('this process has one copy of each, so an app starts', () => {
  expect(() => assertSingleLibraryCopies()).not.toThrow();
  expect(McpApplication.create({ name: 'one-copy', version: '1.0.0', providers: [] })).toBeInstanceOf(McpApplication);
});

test('Windows paths: backslashes (or mixed separators) find the same folders, named as loaded', () => {
  const loaded = [
    'C:\\srv\\app\\node_modules\\tsyringe\\dist\\cjs\\index.js',
    'C:\\srv\\app\\node_modules\\onemodelcontext\\node_modules\\tsyringe\\index.js',
    'C:/srv/other/node_modules\\tsyringe/index.js',
    'C:\\srv\\app\\node_modules\\@scope\\tsyringe\\index.js',
    'C:\\srv\\app\\node_modules\\tsyringe',
  ];
  expect(loadedCopies('tsyringe', loaded)).toEqual(
    [
      'C:\\srv\\app\\node_modules\\onemodelcontext\\node_modules\\tsyringe',
      'C:\\srv\\app\\node_modules\\tsyringe',
      'C:/srv/other/node_modules\\tsyringe',
    ].sort(),
  );
});

test('a scoped library is found by its two segments; a file of a package nested in a copy names the nested one', () => {
  const loaded = files(
    [app, '@scope', 'lib', 'index.js'],
    [app, 'other', 'node_modules', '@scope', 'lib', 'dist', 'index.js'],
    [app, '@scope', 'lib-extra', 'index.js'],
    [app, 'tsyringe', 'node_modules', 'tslib', 'tslib.js'],
    [app, 'tsyringe', 'index.js'],
  );
  expect(loadedCopies('@scope/lib', loaded)).toEqual(
    [join(app, '@scope', 'lib'), join(app, 'other', 'node_modules', '@scope', 'lib')].sort(),
  );
  expect(loadedCopies('tsyringe', loaded)).toEqual([join(app, 'tsyringe')]);
  expect(loadedCopies('tslib', loaded)).toEqual([join(app, 'tsyringe', 'node_modules', 'tslib')]);
});
