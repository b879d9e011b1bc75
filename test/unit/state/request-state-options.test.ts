import classValidator = require('class-validator');
import { FrameworkError } from '../../../src/errors/framework-error';
import { ContextServerModule } from '../../../src/server/core/server-module';
import { RequestStateModule } from '../../../src/state/request-state-module';
import { pickRequestStateOptions, RequestStateOptions } from '../../../src/state/request-state-options';
import {
  MemorySingleUseStore,
  REQUEST_STATE_DEFAULTS,
  resolveRequestStateOptions,
} from '../../../src/state';
import { testKey } from './state-fixtures';

function problemsOf(input: Partial<RequestStateOptions>): string {
  try {
    resolveRequestStateOptions(input);
  } catch (error) {
    expect(error).toBeInstanceOf(FrameworkError);
    expect((error as FrameworkError).code).toBe('OMC_INVALID_OPTIONS');
    return (error as FrameworkError).message;
  }
  throw new Error('expected the options to be refused');
}

describe('resolveRequestStateOptions', () => {
  it('applies the documented defaults and freezes the result', () => {
    const resolved = resolveRequestStateOptions({});
    expect(resolved).toMatchObject({
      encryptRequestState: false,
      requestStateLifetime: 600,
      maxFlowLifetime: 3600,
      maxRequestStateBytes: 65_536,
      singleUseRequestState: false,
      requestStateAudience: undefined,
      singleUseStore: undefined,
    });
    expect(REQUEST_STATE_DEFAULTS.maxRequestStateBytes).toBe(65_536);
    expect(resolved.keyRing.ephemeral).toBe(true);
    expect(Object.isFrozen(resolved)).toBe(true);
    expect(() => {
      (resolved as { maxRequestStateBytes: number }).maxRequestStateBytes = 1;
    }).toThrow(TypeError);
  });

  it('keeps valid values and ignores options that belong to someone else', () => {
    const store = new MemorySingleUseStore();
    const resolved = resolveRequestStateOptions({
      requestStateKey: testKey('x'),
      encryptRequestState: true,
      requestStateLifetime: 30,
      maxFlowLifetime: 30,
      maxRequestStateBytes: 1024,
      requestStateAudience: 'billing',
      singleUseRequestState: true,
      singleUseStore: store,
      ...({ serverName: 'other' } as object),
    });
    expect(resolved).toMatchObject({
      encryptRequestState: true,
      requestStateLifetime: 30,
      maxFlowLifetime: 30,
      maxRequestStateBytes: 1024,
      requestStateAudience: 'billing',
      singleUseStore: store,
    });
    expect(resolved.keyRing.ephemeral).toBe(false);
    expect(Object.keys(resolved)).not.toContain('serverName');
  });

  it.each([
    [{ encryptRequestState: 'yes' }, 'encryptRequestState: must be true or false'],
    [{ requestStateLifetime: 1.5 }, 'requestStateLifetime: must be a whole number'],
    [{ requestStateLifetime: 0 }, 'requestStateLifetime: must be at least 1'],
    [{ requestStateLifetime: 86_401 }, 'requestStateLifetime: must be at most'],
    [{ maxFlowLifetime: -1 }, 'maxFlowLifetime: must be at least 1'],
    [{ maxFlowLifetime: Infinity }, 'maxFlowLifetime: must be a whole number'],
    [
      { requestStateLifetime: 600, maxFlowLifetime: 300 },
      'maxFlowLifetime: 300s must be at least requestStateLifetime (600s)',
    ],
    [{ maxRequestStateBytes: 1023 }, 'maxRequestStateBytes: must be at least 1024'],
    [{ maxRequestStateBytes: NaN }, 'maxRequestStateBytes: must be a whole number'],
    [{ requestStateAudience: '' }, 'requestStateAudience: must not be empty'],
    [{ requestStateAudience: 7 }, 'requestStateAudience: must be a string'],
    [{ singleUseRequestState: 1 }, 'singleUseRequestState: must be true or false'],
    [{ singleUseRequestState: true, singleUseStore: {} }, 'singleUseStore: must be an object with a claim'],
    [{ singleUseStore: new MemorySingleUseStore() }, 'singleUseStore: is set but singleUseRequestState is not true'],
    [{ requestStateKey: Buffer.alloc(8, 1) }, 'requestStateKey: is 8 bytes'],
  ])('refuses %p, saying how to fix it', (input, says) => {
    expect(problemsOf(input as Partial<RequestStateOptions>)).toContain(says);
  });

  it('names every bad option in one error', () => {
    const message = problemsOf({
      requestStateLifetime: -5,
      maxRequestStateBytes: 10,
      requestStateKey: 'short',
    } as Partial<RequestStateOptions>);
    expect(message).toContain('requestStateLifetime');
    expect(message).toContain('maxRequestStateBytes');
    expect(message).toContain('requestStateKey');
  });
});

describe('RequestStateModule.from: the server options are validated once (issue 38)', () => {
  afterEach(() => jest.restoreAllMocks());

  it("takes the requestState part of ContextServerModule's validated options without a second pass", () => {
    const server = ContextServerModule.configure({
      requestStateKey: testKey('once'),
      requestStateLifetime: 30,
      maxFlowLifetime: 60,
    }).options;
    const validate = jest.spyOn(classValidator, 'validateSync');
    const part = RequestStateModule.from(server).options;
    expect(validate).not.toHaveBeenCalled();
    expect(part).toBeInstanceOf(RequestStateOptions);
    expect(Object.isFrozen(part)).toBe(true);
    expect({ ...part }).toEqual({ ...RequestStateModule.configure(pickRequestStateOptions(server)).options });
  });

  it('still validates any other object, refusing what the rules refuse', () => {
    const validate = jest.spyOn(classValidator, 'validateSync');
    expect(RequestStateModule.from({ requestStateLifetime: 30, maxFlowLifetime: 60 }).options).toMatchObject({
      requestStateLifetime: 30,
    });
    expect(validate).toHaveBeenCalledTimes(1);
    expect(() => RequestStateModule.from({ requestStateLifetime: 120, maxFlowLifetime: 60 })).toThrow(
      /maxFlowLifetime: 60s must be at least requestStateLifetime/,
    );
  });
});
