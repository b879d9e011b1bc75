/** Telemetry is decided once, on first use: nothing is live without an SDK, or when switched off. */
import { ServerTelemetry } from '../../../src/telemetry/server-telemetry';
import { TelemetryOptions } from '../../../src/telemetry/telemetry-options';
import { installOtel } from '../../helpers/otel';

const options = (init: Partial<TelemetryOptions> = {}) => Object.assign(new TelemetryOptions(), init);
const request = { jsonrpc: '2.0' as const, id: 1, method: 'tools/list', params: {} };

test('the API without an SDK: off, and a request gets no telemetry', () => {
  const t = new ServerTelemetry(options());
  expect(t.on).toBe(false);
  expect(t.begin(request, { era: 'modern' })).toBeUndefined();
});

test('decided on first use: an SDK registered later is not picked up by that server', async () => {
  const early = new ServerTelemetry(options());
  expect(early.on).toBe(false);
  const otel = installOtel();
  try {
    expect(early.on).toBe(false);
    expect(new ServerTelemetry(options()).on).toBe(true);
    expect(new ServerTelemetry(options({ traces: false, metrics: false })).on).toBe(false);
    expect(new ServerTelemetry(options({ traces: false, metrics: false }), () => undefined).on).toBe(true);
  } finally {
    await otel.shutdown();
  }
});
