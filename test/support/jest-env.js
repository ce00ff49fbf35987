// Test servers run side by side (in this process and as children): each takes its own free metrics port
// instead of the default 9464. Tests that check the default set MCP_METRICS_PORT themselves.
process.env.MCP_METRICS_PORT ??= '0';
