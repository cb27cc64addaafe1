# Image of apps/api. Build context: the repository root, e.g.
#   docker build -f docker/api.Dockerfile -t pix-api .
# (docker/compose.yaml does this). Written from the node image docs; not built on the dev machine.
ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Compile: all dependencies (tsc, type packages), then `npm run build` (tsc -> dist/).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Lockfile first so the dependency layer is reused while only sources change.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. Production dependencies only, installed apart so no dev tooling reaches the runtime image.
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 3. Runtime: compiled JS + production node_modules, run as the image's unprivileged `node` user.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# tools/launch.js resolves the compiled entry point and the @pix/* aliases (tsconfig.base.json).
COPY package.json tsconfig.base.json ./
COPY tools ./tools
# GET /openapi.json is built from the vendored official contract at run time.
COPY libs/contracts/spec ./libs/contracts/spec
USER node
EXPOSE 8080
# The slim image has neither curl nor wget: Node 20's global fetch does the probe.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://localhost:8080/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "tools/launch.js", "apps/api/src/main.js"]
