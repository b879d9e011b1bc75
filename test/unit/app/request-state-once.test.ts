/**
 * The requestState options are validated once (issue 38): the module that holds them validated them, and
 * `McpApplication.create` hands them to the codec with the server name and the shared single-use store
 * filled in, without a second pass. What the rules refuse is still refused, with the same words.
 */
import { randomBytes } from 'node:crypto';
import * as validation from '../../../src/config/validate-options';
import { defineModule, McpApplication, RequestStateModule, SHARED_STORES } from '../../../src';
import { ContextServerModule } from '../../../src/server/core/server-module';
import { createRequestStateCodec, MemorySingleUseStore, type SingleUseStore } from '../../../src/state';
import type { SharedStores } from '../../../src/server/fleet/shared-stores';
import { refusal } from '../../helpers/options-refusal';

const app = (extra: object = {}) => McpApplication.create({ name: 'once', version: '1.0.0', providers: [], ...extra });

/** The labels validateOptions was called with while `run` ran. */
function validatedLabels(run: () => unknown): string[] {
  const spy = jest.spyOn(validation, 'validateOptions');
  try {
    run();
    return spy.mock.calls.map(([, , spec]) => spec.label);
  } finally {
    spy.mockRestore();
  }
}

function sharedModule(singleUseStore: unknown) {
  const stores = {
    singleUseStore: singleUseStore as SingleUseStore,
    ready: async () => undefined,
    close: async () => undefined,
  } satisfies SharedStores;
  return defineModule(SHARED_STORES, stores);
}

describe('McpApplication.create validates the requestState options once', () => {
  // The application options themselves pass a hand check (application-options-accept.test.ts), not validateOptions.
  it('with ContextServerModule: no options are validated again at create', () => {
    const key = randomBytes(32);
    const modules = [ContextServerModule.configure({ requestStateKey: key, requestStateLifetime: 30 })];
    let built: McpApplication | undefined;
    expect(validatedLabels(() => (built = app({ modules })))).toEqual([]);
    expect(built!.stateKeyFingerprint).toBe(createRequestStateCodec({ requestStateKey: key }).fingerprint);
  });

  it('with RequestStateModule alone, and with no module: no second pass over the requestState options', () => {
    const modules = [RequestStateModule.configure({ requestStateLifetime: 30, maxFlowLifetime: 60 })];
    expect(validatedLabels(() => app({ modules }))).not.toContain('requestState options');
    expect(validatedLabels(() => app())).toEqual(['ContextServerOptions']);
  });

  it('a shared single-use store is taken as it is; one without claim() is refused as before', () => {
    const modules = (store: unknown) => [
      ContextServerModule.configure({ singleUseRequestState: true }),
      sharedModule(store),
    ];
    const good = modules(new MemorySingleUseStore());
    expect(validatedLabels(() => app({ modules: good }))).toEqual([]);
    const bad = modules({});
    expect(refusal(() => app({ modules: bad }))).toContain(
      'singleUseStore: must be an object with a claim(tokenId, expiresAtMs) method',
    );
  });

  it('a shared store is not used, nor checked, unless single use is on', () => {
    expect(() => app({ modules: [sharedModule({})] })).not.toThrow();
  });
});
