# syntax=docker/dockerfile:1
# Container image for one MCP server app of this monorepo (apps/<APP>), Streamable HTTP on port 3000.
#
#   docker build --build-arg APP=<app> -t <app> .
#   docker run --rm -p 127.0.0.1:3000:3000 -e MCP_ALLOWED_HOSTS=localhost,127.0.0.1 <app>
#
# The project pins Node 24 through the `node` devDependency for local work and tests; the image
# uses the official Node 24 base instead, and that package is a devDependency, so it never reaches
# the runtime stage. Debian slim (glibc), not Alpine: the build stage's `npm ci` installs the
# `node` package, whose prebuilt binary needs glibc.
ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: all dependencies, compile the Nest monorepo app to dist/ ----
FROM ${NODE_IMAGE} AS build
ARG APP
RUN test -n "$APP" || { echo 'build argument APP is required: docker build --build-arg APP=<app> .' >&2; exit 1; }
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build -- "$APP" && ln -s "apps/$APP/apps/$APP/src/main.js" dist/main.js

# ---- runtime: production dependencies and the compiled output only ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
# Installed as root and left root-owned, so the unprivileged runtime user cannot modify the app.
# --ignore-scripts: the only production install script (protobufjs, under the OpenTelemetry OTLP
# exporters) just prints a version notice.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# The official image's unprivileged user (uid 1000).
USER node
# 3000: MCP, /health, /ready, the service page. 9464: Prometheus /metrics (keep it off the ingress).
EXPOSE 3000 9464
# Liveness from /health (no auth, no dependency probes); orchestrators should use /ready for traffic.
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# V8 flags: the list in scripts/lib/node-flags.mjs (why each one is there), which `npm start` uses too.
CMD ["node", "--no-allocation-site-pretenuring", "dist/main.js"]
