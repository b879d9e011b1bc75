/** Configuration modules (DESIGN D9): one per concern, composed by ContextServerModule, each token configured once. */
import { randomBytes } from 'node:crypto';
import {
  ContextServerModule,
  McpApplication,
  REQUEST_STATE_OPTIONS,
  RequestStateModule,
  RequestStateOptions,
  SERVER_OPTIONS,
} from '../../../src';
import { createRequestStateCodec, REQUEST_STATE_DEFAULTS } from '../../../src/state';
import { silentLogger } from '../../../src/server/core/server-logger';
import { refusal } from '../../helpers/options-refusal';

const app = (extra: object = {}) => McpApplication.create({ name: 'mods', version: '1.0.0', providers: [], ...extra });

describe('RequestStateModule', () => {
  it('holds the requestState options, validated, defaulted and frozen', () => {
    const module = RequestStateModule.configure({ requestStateLifetime: 30, maxFlowLifetime: 60 });
    expect(module.token).toBe(REQUEST_STATE_OPTIONS);
    expect(module.options).toBeInstanceOf(RequestStateOptions);
    expect(module.options).toMatchObject({
      requestStateLifetime: 30,
      maxFlowLifetime: 60,
      maxRequestStateBytes: 65_536,
      encryptRequestState: false,
    });
    expect(Object.isFrozen(module.options)).toBe(true);
  });

  it('refuses a key that is not a requestState option, server ones included', () => {
    expect(refusal(() => RequestStateModule.configure({ requestStateLifetim: 5 } as object))).toContain(
      'requestStateLifetim: unknown option; did you mean "requestStateLifetime"?',
    );
    expect(refusal(() => RequestStateModule.configure({ pageSize: 5 } as object))).toContain(
      'pageSize: unknown option',
    );
  });

  it('given alone, configures the app\'s codec; the server options keep their defaults', () => {
    const key = randomBytes(32);
    const configured = app({ modules: [RequestStateModule.configure({ requestStateKey: key })] });
    expect(configured.hasEphemeralStateKey).toBe(false);
    expect(configured.stateKeyFingerprint).toBe(createRequestStateCodec({ requestStateKey: key }).fingerprint);
    expect(configured.options.pageSize).toBe(100);
    expect(configured.options.requestStateKey).toBe(key);
  });
});

describe('ContextServerModule composes the requestState module', () => {
  it('registers both tokens from one configuration', () => {
    const module = ContextServerModule.configure({
      logger: silentLogger,
      requestStateLifetime: 30,
      maxFlowLifetime: 60,
      pageSize: 7,
    });
    expect(module.token).toBe(SERVER_OPTIONS);
    expect(module.parts?.map((p) => p.token)).toEqual([REQUEST_STATE_OPTIONS]);
    const state = module.parts?.[0]?.options as RequestStateOptions;
    expect(state).toMatchObject({ requestStateLifetime: 30, maxFlowLifetime: 60 });
    expect(Object.keys(state)).not.toContain('pageSize');
    const configured = app({ modules: [module] });
    expect(configured.container.resolve(REQUEST_STATE_OPTIONS)).toBe(state);
    expect(configured.container.resolve(SERVER_OPTIONS)).toBe(module.options);
  });

  it('shows every default on the frozen options, each read off its one definition', () => {
    const options = ContextServerModule.configure({}).options;
    expect(options).toMatchObject(REQUEST_STATE_DEFAULTS);
    expect(REQUEST_STATE_DEFAULTS).toEqual({
      encryptRequestState: false,
      requestStateLifetime: 600,
      maxFlowLifetime: 3600,
      maxRequestStateBytes: 65_536,
      singleUseRequestState: false,
    });
  });

  it.each([
    [
      'the server module twice',
      () => [ContextServerModule.configure({}), ContextServerModule.configure({ pageSize: 5 })],
      'onemodelcontext:server-options',
    ],
    [
      'the server module and a requestState module',
      () => [ContextServerModule.configure({}), RequestStateModule.configure({})],
      'onemodelcontext:request-state-options',
    ],
  ])('refuses %s: which one wins would be an accident of order', (_what, modules, token) => {
    const message = refusal(() => app({ modules: modules() }));
    expect(message).toContain(`modules: ${token} is configured by two modules`);
  });
});

describe('McpApplication passes options through whole', () => {
  it('info is the identity given, nothing more, frozen', () => {
    const configured = app({ title: 'Mods', websiteUrl: 'https://example.com' });
    expect(configured.info).toEqual({
      name: 'mods',
      version: '1.0.0',
      title: 'Mods',
      websiteUrl: 'https://example.com',
    });
    expect(Object.isFrozen(configured.info)).toBe(true);
  });
});
