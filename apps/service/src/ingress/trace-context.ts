/**
 * W3C Trace Context (`traceparent`, https://www.w3.org/TR/trace-context/): what a
 * `ClientAudioInput.trace_context` on a request's first chunk carries. A value that does not
 * parse is ignored, as the recommendation asks of receivers, so tracing never costs a session.
 */

/** The parts of a traceparent the service logs. */
export interface TraceContext {
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** The caller's span (16 hex digits): the parent of whatever the service records. */
  parentSpanId: string;
  /** Bit 0: the caller sampled this trace. */
  sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** The trace context in `header`, or undefined when it is absent or malformed. */
export function parseTraceparent(header: string | undefined): TraceContext | undefined {
  if (!header || header.length > 512) return undefined;
  const m = TRACEPARENT.exec(header.trim());
  if (!m) return undefined;
  const [, version, traceId, parentSpanId, flags, rest] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  // Version ff is invalid; version 00 has exactly four fields (later versions may append more).
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentSpanId)) return undefined;
  return { traceId, parentSpanId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
}
