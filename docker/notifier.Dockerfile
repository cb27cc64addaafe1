# Image of apps/notifier (no port published). Build context: the repository root:
#   docker build -f docker/notifier.Dockerfile -t pix-notifier .
# Same stages as api.Dockerfile; written from the node image docs, not built on the dev machine.
ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Compile: all dependencies, then `npm run build` (tsc -> dist/).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. Production dependencies only.
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 3. Runtime, as the unprivileged `node` user.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json tsconfig.base.json ./
COPY tools ./tools
USER node
EXPOSE 8081
HEALTHCHECK --interval=15s --timeout=5s --retries=3 CMD node -e "fetch('http://localhost:8081/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "tools/launch.js", "apps/notifier/src/main.js"]
