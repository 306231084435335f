/** The service version reported by /healthz and the OpenAPI document. */
export const SERVICE_VERSION = '0.1.0';
