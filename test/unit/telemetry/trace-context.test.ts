/** `traceparent` / `tracestate` from `params._meta`: what is read, and hostile values ignored (never thrown). */
import { formatTraceParent, readTraceParent } from '../../../src/telemetry/trace-context';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';
const GOOD = `00-${TRACE}-${SPAN}-01`;

test('a version-00 traceparent and its tracestate are read', () => {
  expect(readTraceParent({ traceparent: GOOD, tracestate: 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE' })).toEqual({
    traceId: TRACE,
    spanId: SPAN,
    traceFlags: 1,
    traceState: 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE',
  });
  expect(formatTraceParent(TRACE, SPAN, 1)).toBe(GOOD);
});

test('a future version may append fields; version 00 may not', () => {
  expect(readTraceParent({ traceparent: `01-${TRACE}-${SPAN}-01-extra` })).toMatchObject({ traceId: TRACE });
  expect(readTraceParent({ traceparent: `${GOOD}-extra` })).toBeUndefined();
});

test.each([
  ['not an object', 'x'],
  ['null', null],
  ['an array', [GOOD]],
  ['missing', {}],
  ['a number', { traceparent: 42 }],
  ['upper case', { traceparent: GOOD.toUpperCase() }],
  ['zero trace id', { traceparent: `00-${'0'.repeat(32)}-${SPAN}-01` }],
  ['zero span id', { traceparent: `00-${TRACE}-${'0'.repeat(16)}-01` }],
  ['version ff', { traceparent: `ff-${TRACE}-${SPAN}-01` }],
  ['short', { traceparent: GOOD.slice(0, 40) }],
  ['oversized', { traceparent: `01-${TRACE}-${SPAN}-01-${'a'.repeat(100_000)}` }],
  ['junk', { traceparent: '00-zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz-zzzzzzzzzzzzzzzz-zz' }],
  ['prototype keys', JSON.parse('{"__proto__": {"traceparent": "x"}}')],
])('%s: ignored', (_name, meta) => {
  expect(readTraceParent(meta)).toBeUndefined();
});

test('an oversized or non-printable tracestate is dropped, the traceparent kept', () => {
  expect(readTraceParent({ traceparent: GOOD, tracestate: 'a='.padEnd(10_000, 'b') })?.traceState).toBeUndefined();
  expect(readTraceParent({ traceparent: GOOD, tracestate: 'a=b\nc=d' })?.traceState).toBeUndefined();
  const kept = { traceId: TRACE, spanId: SPAN, traceFlags: 1 };
  expect(readTraceParent({ traceparent: GOOD, tracestate: 7 })).toEqual(kept);
});
