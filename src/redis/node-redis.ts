/**
 * `redis` (node-redis) is an optional peer dependency: it is loaded on first use, so importing
 * `onemodelcontext/redis` works without it, and the first connection says what to install.
 */
import type * as NodeRedis from 'redis';

let loaded: typeof NodeRedis | undefined;

export function nodeRedis(): typeof NodeRedis {
  if (loaded) return loaded;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require('redis') as typeof NodeRedis;
  } catch (error) {
    const missing = (error as { code?: string }).code === 'MODULE_NOT_FOUND' && /'redis'/.test(String(error));
    if (!missing) throw error;
    throw new Error(
      'onemodelcontext/redis needs the `redis` package (node-redis 6, an optional peer dependency): npm install redis@6',
      { cause: error },
    );
  }
  return loaded;
}
