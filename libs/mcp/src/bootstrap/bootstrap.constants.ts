/**
 * How long a shutdown may run past the grace period before the process exits anyway: enough for what follows the
 * drain (the answers of calls aborted at its end, 1 s; the slots given back and the Redis connections closed, 1 s
 * each at most; the telemetry flush, 1 s), within the slack of the Kubernetes manifests. A file of its own, free of
 * imports, because the deploy-file checks read it through `@app/mcp/tooling`.
 */
export const SHUTDOWN_MARGIN_MS = 5_000;
