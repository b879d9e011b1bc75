/**
 * `BridgeModule.configure({ mounts: [...] })`: upstream servers declared next to the providers, in
 * the app's module list. Each mount's options are validated (naming `mounts[i]`) and frozen when
 * the module is built; the upstreams are mounted when the app starts (`serveHttp`, `serveStdio`,
 * or `app.start()`), with the same semantics as `mountServer`, and closed by `app.close()`.
 */
import type { InjectionToken } from 'tsyringe';
import type { McpApplication } from '../app/application';
import type { ConfigModule } from '../config/modules';
import { optionsError } from '../config/validate-options';
import { FrameworkError } from '../errors/framework-error';
import { Mount } from './mount';
import { resolveMountOptions, type MountInit, type MountOptions } from './mount-options';

export interface BridgeModuleOptions {
  readonly mounts: readonly Readonly<MountOptions>[];
}

export const BRIDGE_OPTIONS: InjectionToken<BridgeModuleOptions> = Symbol.for('onemodelcontext:bridge-options');

export class BridgeModule {
  static configure(init: { mounts: MountInit[] }): ConfigModule<BridgeModuleOptions> {
    const options = Object.freeze({ mounts: Object.freeze(resolveAll(init)) });
    return Object.freeze({
      token: BRIDGE_OPTIONS,
      options,
      register: (container) => container.register(BRIDGE_OPTIONS, { useValue: options }),
      start: (app: object) => startMounts(app as McpApplication, options.mounts),
    } satisfies ConfigModule<BridgeModuleOptions>);
  }
}

function resolveAll(init: { mounts: MountInit[] }): Readonly<MountOptions>[] {
  const keys = typeof init === 'object' && init !== null ? Object.keys(init).filter((k) => k !== 'mounts') : [];
  if (keys.length) throw optionsError('BridgeModule', keys.map((k) => ({ field: k, message: 'unknown option' })));
  if (!Array.isArray(init?.mounts)) {
    throw optionsError('BridgeModule', [{ field: 'mounts', message: 'must be an array of MountOptions' }]);
  }
  const seen = new Set<string>();
  return init.mounts.map((m, i) => {
    let options: Readonly<MountOptions>;
    try {
      options = resolveMountOptions(m);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      throw optionsError('BridgeModule', [{ field: `mounts[${i}]`, message }]);
    }
    if (seen.has(options.namespace)) {
      const message = `namespace "${options.namespace}" is mounted twice`;
      throw optionsError('BridgeModule', [{ field: `mounts[${i}].namespace`, message }]);
    }
    seen.add(options.namespace);
    return options;
  });
}

/** Mounts each upstream in order; one that cannot start closes those before it and fails start-up. */
async function startMounts(app: McpApplication, mounts: readonly Readonly<MountOptions>[]) {
  const started: Mount[] = [];
  const closeAll = async () => {
    for (const m of started.splice(0).reverse()) await m.close().catch(() => undefined);
  };
  for (const options of mounts) {
    try {
      started.push(await Mount.start(app, options));
    } catch (e) {
      await closeAll();
      const why = e instanceof Error ? e.message : String(e);
      const message = `BridgeModule: mount "${options.namespace}" failed to start: ${why}`;
      throw new FrameworkError('OMC_MOUNT_FAILED', message, { cause: e });
    }
  }
  return closeAll;
}
