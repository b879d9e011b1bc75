/** readDeploymentEnv / httpOptionsFromEnv: what a deployed instance reads, and refusals naming the variable. */
import { FrameworkError, httpOptionsFromEnv, readDeploymentEnv } from '../../../../src';

test('reads every variable, trimming and lower-casing hosts', () => {
  const env = readDeploymentEnv({
    PORT: '8081',
    REQUEST_STATE_KEY: 'k'.repeat(43),
    REDIS_URL: 'redis://127.0.0.1:6379/0',
    ALLOWED_HOSTS: ' LB.example:443 , 127.0.0.1:8080,',
    SESSION_ID_PREFIX: 'i1',
    READINESS_PATH: '/ready',
    READINESS_PORT: '9091',
  });
  expect(env).toEqual({
    port: 8081,
    requestStateKey: 'k'.repeat(43),
    redisUrl: 'redis://127.0.0.1:6379/0',
    allowedHosts: ['lb.example:443', '127.0.0.1:8080'],
    sessionIdPrefix: 'i1',
    readinessPath: '/ready',
    readinessPort: 9091,
  });
  expect(httpOptionsFromEnv(env)).toMatchObject({ readinessPath: '/ready', readinessPort: 9091 });
});

test('empty and absent variables are unset', () => {
  expect(readDeploymentEnv({ PORT: '', REDIS_URL: '  ' })).toEqual({});
});

test.each([
  ['PORT', '80a'],
  ['PORT', '70000'],
  ['PORT', '-1'],
  ['REDIS_URL', 'http://127.0.0.1:6379'],
  ['ALLOWED_HOSTS', 'a.example:80,https://b.example'],
  ['ALLOWED_HOSTS', 'a b'],
  ['SESSION_ID_PREFIX', 'i.1'],
  ['SESSION_ID_PREFIX', 'x'.repeat(33)],
  ['READINESS_PATH', 'ready'],
  ['READINESS_PATH', '/ready?x=1'],
  ['READINESS_PORT', '70000'],
  ['READINESS_PORT', 'ready'],
])('%s=%j stops start-up with a message naming it', (name, value) => {
  let error: unknown;
  try {
    readDeploymentEnv({ [name]: value });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(FrameworkError);
  expect((error as FrameworkError).code).toBe('OMC_INVALID_OPTIONS');
  expect((error as FrameworkError).message).toContain(name);
});

test('every bad variable is named at once', () => {
  expect(() => readDeploymentEnv({ PORT: 'x', REDIS_URL: 'nope' })).toThrow(/PORT[\s\S]*REDIS_URL/);
});

test('httpOptionsFromEnv keeps the instance reachable on its own loopback address beside the proxy hosts', () => {
  expect(
    httpOptionsFromEnv({
      port: 8081,
      allowedHosts: ['127.0.0.1:8080'],
      sessionIdPrefix: 'i1',
      readinessPath: '/ready',
    }),
  ).toEqual({
    host: '127.0.0.1',
    port: 8081,
    path: '/mcp',
    allowedHosts: ['127.0.0.1:8080', '127.0.0.1:8081', 'localhost:8081'],
    sessionIdPrefix: 'i1',
    readinessPath: '/ready',
    drainQuietMs: 5000,
  });
  expect(httpOptionsFromEnv({})).toEqual({ host: '127.0.0.1', port: 3000, path: '/mcp' });
});

test('the session pool options come from MAX_*_SESSIONS and SESSION_EVICTION_MIN_IDLE_MS', () => {
  const env = readDeploymentEnv({ MAX_ANONYMOUS_SESSIONS: '3', SESSION_EVICTION_MIN_IDLE_MS: '0', MAX_SESSIONS: '50' });
  expect(env.sessionPools).toEqual({ maxAnonymousSessions: 3, sessionEvictionMinIdleMs: 0, maxSessions: 50 });
  expect(httpOptionsFromEnv(env)).toMatchObject(env.sessionPools!);
  expect(() => readDeploymentEnv({ MAX_SESSIONS_PER_PRINCIPAL: 'many' })).toThrow(/MAX_SESSIONS_PER_PRINCIPAL/);
});
