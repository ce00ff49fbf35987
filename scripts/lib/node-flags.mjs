// The Node flags an MCP server process of this project runs with: the image's CMD (Dockerfile; its suite,
// test/deploy/dockerfile.e2e-spec.ts, keeps it equal to this list), `npm start`, `npm run start:replicas`, and the
// bench's servers and probes. Not the development watch mode (`npm run start:dev`), which Nest's CLI starts. V8 flags:
// Node refuses them in NODE_OPTIONS, so a server started another way needs them on its node command line.
//
// --no-allocation-site-pretenuring: V8 allocates objects from an allocation site straight into the old generation
// once most of that site's objects were seen to survive a young-generation collection. Under a request load that
// guess goes wrong: a few per-request objects allocated old (their site judged at boot, or while a burst was in
// flight) keep the young objects they point to alive through every scavenge, those are promoted, their sites turn
// old as well, and each scavenge ends up copying about a megabyte of per-request garbage (1.5 KB a call measured in
// the production configuration: scavenges of 3 ms instead of 0.6). Without the heuristic a request's objects die
// young, as they should: 2-6% more calls a second in A/Bs of the production configuration on both adapters and of a
// bare server on Fastify (docs/speed.md).
export const NODE_FLAGS = ['--no-allocation-site-pretenuring'];
