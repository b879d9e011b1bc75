/**
 * A request's telemetry, found from its scope. Kept beside the scope rather than on it: the scope
 * is public, the telemetry handle is not. Nothing is attached when telemetry is off.
 */
import type { RequestTelemetry } from '../../telemetry/request-telemetry';
import type { RequestScope } from './request-scope';

const byScope = new WeakMap<RequestScope, RequestTelemetry>();

export function attachTelemetry(scope: RequestScope, telemetry: RequestTelemetry): RequestScope {
  byScope.set(scope, telemetry);
  return scope;
}

export function telemetryOf(scope: RequestScope): RequestTelemetry | undefined {
  return byScope.get(scope);
}
