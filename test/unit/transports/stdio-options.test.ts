import { validateStdioOptions } from '../../../src/transports/stdio-options';

describe('StdioOptions', () => {
  it('carries its defaults on the class', () => {
    expect(validateStdioOptions({})).toMatchObject({ maxFrameBytes: 10 * 1024 * 1024, redirectConsole: true });
  });
});
