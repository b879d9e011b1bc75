/** The metric instruments, made once per server when a meter provider is live. */
import type { Counter, Histogram, UpDownCounter } from '@opentelemetry/api';
import type { Otel } from './otel-api';
import { DURATION_BUCKETS, Metric } from './conventions';

export interface Instruments {
  duration: Histogram;
  rounds: Histogram;
  asks: Counter;
  refusals: Counter;
  stateSize: Histogram;
  pendingAsks: UpDownCounter;
  listenStreams: UpDownCounter;
  sessionEvictions: Counter;
}

export function makeInstruments(api: Otel): Instruments {
  const meter = api.metrics.getMeter('onemodelcontext');
  return {
    duration: meter.createHistogram(Metric.duration, {
      unit: 's',
      description: 'The duration of the MCP request or notification as observed on the receiver.',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    rounds: meter.createHistogram(Metric.rounds, {
      unit: '{round}',
      description: 'Rounds a 2026 multi-round flow took, recorded when it completes.',
      advice: { explicitBucketBoundaries: [1, 2, 3, 4, 5, 6, 8, 10, 16, 32] },
    }),
    asks: meter.createCounter(Metric.asks, {
      unit: '{ask}',
      description: 'Answers to asks (elicitation, sampling, roots) by kind and outcome.',
    }),
    refusals: meter.createCounter(Metric.refusals, {
      unit: '{refusal}',
      description: 'Echoed requestState values refused, by reason.',
    }),
    stateSize: meter.createHistogram(Metric.stateSize, {
      unit: 'By',
      description: 'Size of each sealed requestState the server returned.',
      advice: { explicitBucketBoundaries: [256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072] },
    }),
    pendingAsks: meter.createUpDownCounter(Metric.pendingAsks, {
      unit: '{request}',
      description: 'Legacy server-to-client requests (asks) waiting for the client’s reply.',
    }),
    listenStreams: meter.createUpDownCounter(Metric.listenStreams, {
      unit: '{stream}',
      description: 'Open subscriptions/listen streams.',
    }),
    sessionEvictions: meter.createCounter(Metric.sessionEvictions, {
      unit: '{session}',
      description: 'Legacy sessions evicted to make room in a full session pool, by pool.',
    }),
  };
}
