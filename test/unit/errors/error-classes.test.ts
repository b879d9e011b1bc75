/** FrameworkError and ProtocolError: cause, name, the one code list, and no transport facts. */
import { FrameworkError, ProtocolError } from '../../../src';
import { FRAMEWORK_ERROR_CODES } from '../../../src/errors/framework-error-codes';

test('FrameworkError keeps its code, its detail and the cause it wraps', () => {
  const cause = new Error('disk full');
  const error = new FrameworkError('OMC_INVALID_OPTIONS', 'bad options', { cause });
  expect(error).toBeInstanceOf(Error);
  expect(error.name).toBe('FrameworkError');
  expect(error.message).toBe('[OMC_INVALID_OPTIONS] bad options');
  expect(error.detail).toBe('bad options');
  expect(error.cause).toBe(cause);
  expect('cause' in new FrameworkError('OMC_INVALID_OPTIONS', 'x')).toBe(false);
});

test('the framework codes are one frozen list without repeats', () => {
  expect(Object.isFrozen(FRAMEWORK_ERROR_CODES)).toBe(true);
  expect(new Set(FRAMEWORK_ERROR_CODES).size).toBe(FRAMEWORK_ERROR_CODES.length);
  expect(FRAMEWORK_ERROR_CODES.every((c) => /^OMC_[A-Z_]+$/.test(c))).toBe(true);
});

test('ProtocolError keeps a cause that never crosses the wire, and carries no HTTP status', () => {
  const cause = new Error('db down');
  const error = new ProtocolError(-32603, 'Internal error', { at: 'x' }, { cause });
  expect(error.name).toBe('ProtocolError');
  expect(error.cause).toBe(cause);
  expect(JSON.parse(JSON.stringify(error))).toEqual({ code: -32603, message: 'Internal error', data: { at: 'x' } });
  expect('httpStatus' in ProtocolError.invalidParams('x')).toBe(false);
});
