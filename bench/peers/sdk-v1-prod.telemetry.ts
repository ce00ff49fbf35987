// The OpenTelemetry Node SDK as its documentation sets it up for an Express service: started before anything else
// loads (this file is the peer's first import), the http and express instrumentations, traces exported as the
// OTEL_* environment says (OTLP over HTTP to the bench's sink, the SDK's default sampling and batching).
import { NodeSDK } from '@opentelemetry/sdk-node';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';

export const telemetry = new NodeSDK({
  serviceName: 'bench-peer-sdk-v1-prod',
  instrumentations: [new HttpInstrumentation(), new ExpressInstrumentation()],
});
telemetry.start();
