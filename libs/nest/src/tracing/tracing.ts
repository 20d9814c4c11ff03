import {
  type Context,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
} from '@opentelemetry/sdk-trace-node';

let provider: NodeTracerProvider | undefined;

/**
 * OpenTelemetry for this process: spans carried across async calls (AsyncLocalStorage) and
 * across NATS in W3C `traceparent` headers; exported over OTLP/HTTP when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set (else kept for the logs' trace ids only); off with
 * OTEL_SDK_DISABLED=true. Once per process; the first name wins (in single-process mode:
 * 'platform').
 */
export function startTracing(serviceName: string): void {
  // OpenTelemetry's own switch: no spans, no trace ids in the logs, no context carried along.
  if (provider || process.env['OTEL_SDK_DISABLED'] === 'true') return;
  const endpoint = process.env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    ...(endpoint ? { spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] } : {}),
    // With nothing to export to, a trace this process starts is not recorded: its spans still
    // have trace and span ids (for the log lines and `traceparent`) and cost next to nothing.
    // A caller's decision to sample is kept and passed on. OTEL_TRACES_SAMPLER overrides this.
    ...(endpoint || process.env['OTEL_TRACES_SAMPLER']
      ? {}
      : { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }) }),
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
}

/** Sends what is left of the spans, on shutdown. */
export async function stopTracing(): Promise<void> {
  await provider?.shutdown();
}

/** The trace and span of the current call, for log lines (nothing outside a span). */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** The current trace as W3C headers (`traceparent`, `tracestate`), to send along. */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** The trace a caller sent in its headers (or the current one). */
export function contextFrom(
  headers: { get(name: string): string | undefined } | undefined,
): Context {
  if (!headers) return context.active();
  return propagation.extract(context.active(), headers, {
    keys: () => ['traceparent', 'tracestate'],
    get: (carrier, key) => carrier.get(key) || undefined,
  });
}

/** A new span, child of `parent` (the caller's trace), not yet active. */
export function startSpan(name: string, kind: 'server' | 'client', parent: Context): Span {
  return trace
    .getTracer('debate')
    .startSpan(name, { kind: kind === 'server' ? SpanKind.SERVER : SpanKind.CLIENT }, parent);
}

/** Ends `span`; failed with `error` when one is given (an Error, or what was thrown instead). */
export function endSpan(span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.recordException(
      error instanceof Error ? error : typeof error === 'string' ? error : JSON.stringify(error),
    );
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
