import { classNameProblem, namesFor, packageNameFromFolder, packageNameProblem } from '../../../src/cli/names';

describe('package names', () => {
  test.each(['my-server', 'a', '@acme/weather-mcp', 'x.y_z~1'])('%s is valid', (name) => {
    expect(packageNameProblem(name)).toBeUndefined();
  });
  test.each(['', 'My-Server', '-x', '.x', '_x', 'a b', '@acme', '@/x', 'node_modules', 'x'.repeat(215), 'é'])('%j is refused', (name) => {
    expect(packageNameProblem(name)).toEqual(expect.any(String));
  });
  test.each([
    ['My Server', 'my-server'],
    ['weather', 'weather'],
    ['--', 'mcp-server'],
    ['Ünïcode!', 'n-code'],
  ])('folder %j suggests %j', (folder, name) => {
    expect(packageNameFromFolder(folder)).toBe(name);
  });
});

describe('class names', () => {
  test.each(['Weather', 'BookFlight', 'Api2', 'X'])('%s is valid', (name) => expect(classNameProblem(name)).toBeUndefined());
  test.each(['weather', 'book_flight', 'Book-Flight', '2Fast', 'Wé', '', 'Class', 'X'.repeat(65)])('%j is refused', (name) => {
    expect(classNameProblem(name)).toEqual(expect.any(String));
  });
});

describe('derived names', () => {
  test('tool', () => {
    expect(namesFor('tool', 'BookFlight')).toEqual({
      className: 'BookFlightTool',
      base: 'BookFlight',
      kebab: 'book-flight',
      snake: 'book_flight',
      moduleName: 'book-flight.tool',
    });
  });
  test('the kind suffix is not doubled', () => {
    expect(namesFor('tool', 'WeatherTool').className).toBe('WeatherTool');
    expect(namesFor('prompt', 'SummaryPrompt').moduleName).toBe('summary.prompt');
    expect(namesFor('resource', 'Resource').className).toBe('ResourceResource');
  });
  test('acronyms and digits', () => {
    expect(namesFor('resource', 'HTTPStatus2Codes').snake).toBe('http_status2_codes');
    expect(namesFor('tool', 'GetURL').kebab).toBe('get-url');
  });
});
