import { processRegistry } from '@debate/nest';
import { Counter, Gauge, Histogram } from 'prom-client';

/** Per model of the catalogue (label `model`, its id): what operators watch on /metrics. */
export interface ModelMetrics {
  readonly turnsStarted: Counter<'model'>;
  readonly turnsFailed: Counter<'model'>;
  /** A turn asked again: `mode` (structured output refused), `token_limit`, `http` (the SDK's retry). */
  readonly turnsRetried: Counter<'model' | 'reason'>;
  readonly tokens: Counter<'model' | 'direction'>;
  readonly firstToken: Histogram<'model'>;
  readonly degraded: Gauge<'model'>;
}

let metrics: ModelMetrics | undefined;

/** The process's model metrics (one registry per process, as every other metric). */
export function modelMetrics(): ModelMetrics {
  const registers = [processRegistry()];
  metrics ??= {
    turnsStarted: new Counter({
      name: 'debate_model_turns_started_total',
      help: 'Turns a model was asked to write.',
      labelNames: ['model'],
      registers,
    }),
    turnsFailed: new Counter({
      name: 'debate_model_turns_failed_total',
      help: "Turns a model could not write (they got the spec's error text).",
      labelNames: ['model'],
      registers,
    }),
    turnsRetried: new Counter({
      name: 'debate_model_turns_retried_total',
      help: 'Requests of a turn asked again: reason mode (structured-output mode refused), token_limit (max_completion_tokens wanted) or http (429/5xx, retried by the SDK).',
      labelNames: ['model', 'reason'],
      registers,
    }),
    tokens: new Counter({
      name: 'debate_model_tokens_total',
      help: "Tokens a model's server counted, direction in (prompt) or out (completion).",
      labelNames: ['model', 'direction'],
      registers,
    }),
    firstToken: new Histogram({
      name: 'debate_model_first_token_seconds',
      help: "Time from asking a model for a turn to the turn's first words.",
      labelNames: ['model'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
      registers,
    }),
    degraded: new Gauge({
      name: 'debate_model_degraded',
      help: 'Whether a model is failing (1: its last turns all failed), 0 otherwise.',
      labelNames: ['model'],
      registers,
    }),
  };
  return metrics;
}
