/**
 * Close codes the ingress uses besides the driveningress.v2 table (4001–4503): standard WebSocket
 * codes for protocol violations. Each fatal error is sent as ServerError with `code` equal to the
 * close code that follows it.
 */
export const WsClose = {
  /** Normal closure. */
  Normal: 1000,
  /** Idle timeout: the client sent nothing for too long. */
  GoingAway: 1001,
  /** Text frame, or an audio format the server does not decode yet (OGG_OPUS). */
  UnsupportedData: 1003,
  /** Bytes that are not a protobuf Message, odd-length PCM, an unsupported sample rate. */
  InvalidPayload: 1007,
  /** A message out of order, an unknown type, a bad req_id, a slow reader, egress not available. */
  PolicyViolation: 1008,
  /** A message over the size limit. */
  MessageTooBig: 1009,
  /** The server is restarting: reconnect. */
  ServiceRestart: 1012,
} as const;
