/**
 * validateOptions checks only the options given (issue 38: most of a small app's start-up went into
 * checking defaults): what is left out keeps its class default, so every default must pass its own
 * rules. This pins it for every options class, and that the list below names every class passed to
 * validateOptions (directly or as a nested class), so a new one cannot be left out. The options that
 * fail when left out are the required ones, which have no default (validateOptions checks in full
 * when one of them is missing).
 */
import 'reflect-metadata';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateSync } from 'class-validator';
import { ApplicationOptions } from '../../../src/app/application-options';
import { ContextServerOptions } from '../../../src/server/core/server-options';
import { CacheHintOptions } from '../../../src/config/cache-hint-options';
import { TelemetryOptions } from '../../../src/telemetry/telemetry-options';
import { AskFallbackOptions } from '../../../src/context/ask-fallback';
import { RequestStateOptions } from '../../../src/state/request-state-options';
import { StdioOptions } from '../../../src/transports/stdio-options';
import { CorsOptions, HttpOptions } from '../../../src/transports/http/http-options';
import { RedisModuleOptions } from '../../../src/redis/redis-module';
import { IntrospectionOptions, OAuthResourceOptions } from '../../../src/auth/oauth-options';
import { OAuthOptions } from '../../../src/client/auth/auth-options';
import { ClientInfoOptions, ContextClientOptions } from '../../../src/client/options';
import { AppTarget, HttpTarget, StdioTarget, TransportTarget } from '../../../src/client/targets';
import { MemoryClientOptions } from '../../../src/testing/memory-client-options';
import { TestClientSettings } from '../../../src/testing/test-client-options';
import { MountOptions } from '../../../src/bridge/mount-options';

const CLASSES: Record<string, new () => object> = {
  ApplicationOptions, ContextServerOptions, CacheHintOptions, TelemetryOptions, AskFallbackOptions,
  RequestStateOptions, StdioOptions, HttpOptions, CorsOptions, RedisModuleOptions, OAuthResourceOptions,
  IntrospectionOptions, OAuthOptions, ContextClientOptions, ClientInfoOptions, TransportTarget, AppTarget,
  StdioTarget, HttpTarget, MemoryClientOptions, TestClientSettings, MountOptions,
};

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts')) yield readFileSync(path, 'utf8');
  }
}

test('every class given to validateOptions, or nested in one, is listed here', () => {
  const named = new Set<string>();
  for (const text of sources(join(__dirname, '../../../src'))) {
    for (const m of text.matchAll(/validateOptions\((\w+),/g)) if (m[1] && m[1] !== 'cls') named.add(m[1]);
    for (const m of text.matchAll(/nested: \{([^}]*)\}/g))
      for (const n of (m[1] ?? '').matchAll(/:\s*(\w+)/g)) if (n[1]) named.add(n[1]);
  }
  expect(named.size).toBeGreaterThan(15);
  expect([...named].filter((name) => !(name in CLASSES))).toEqual([]);
});

test.each(Object.keys(CLASSES))('%s: every default passes its own rules (only options with no default fail)', (name) => {
  const cls = CLASSES[name] as new () => Record<string, unknown>;
  const defaults = new cls();
  const failing = validateSync(defaults, { forbidUnknownValues: true }).map((e) => e.property);
  expect(failing.filter((property) => defaults[property] !== undefined)).toEqual([]);
  if (name === 'ApplicationOptions') expect(failing.sort()).toEqual(['name', 'providers', 'version']);
});
