// The Fastify run of the HTTP suites (jest project `e2e-fastify`): every server these suites start, as a child process
// or in this process, serves on Nest's Fastify adapter (bootstrapMcpServer and createMcpHttpApp read it).
process.env.MCP_HTTP_ADAPTER = 'fastify';
