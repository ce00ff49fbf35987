// The Fastify run of the HTTP suites (jest project `e2e-fastify`): every server these suites start, as a child process
// or in this process, serves on Nest's Fastify adapter (bootstrapMcpServer and createMcpHttpApp read it).
process.env.MCP_HTTP_ADAPTER = 'fastify';
// The fuzz over Streamable HTTP sends its 10,000 bodies on Express; on Fastify a quarter of them (the same seed, the
// same checks on each answer) exercises what differs there, the adapter's reading of the body and its answers.
process.env.FUZZ_SCALE ??= '0.25';
