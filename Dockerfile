# syntax=docker/dockerfile:1
# One image for both roles: `server` (default command) and `worker` (see docker-compose.yml).
# Node 24 is the active LTS (Node 20 reached end of life on 2026-04-30).
# `npm run docker:check` replays these steps without a Docker engine (scripts/check-docker-build.ts).

# --- build: all dependencies (vite is a devDependency), then the client bundle.
FROM node:24-bookworm-slim AS build
# onnxruntime-node's install script would fetch CUDA from the internet; the image runs on CPU.
ENV ONNXRUNTIME_NODE_INSTALL=skip
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY . .
RUN npm run build

# --- run: production dependencies only, the sources tsx runs, the built client.
FROM node:24-bookworm-slim AS run
ENV NODE_ENV=production ONNXRUNTIME_NODE_INSTALL=skip
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error && npm cache clean --force
COPY tsconfig.json ./
COPY contracts ./contracts
COPY common ./common
COPY server ./server
COPY worker ./worker
COPY scripts ./scripts
COPY models/cxr ./models/cxr
# The films every model import runs on (worker/src/models/import-model.ts, issue 47).
COPY tests/fixtures/cxr ./tests/fixtures/cxr
COPY --from=build /app/dist ./dist
# The app writes only under /app/data (embedded database, local images) and the node user owns it.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--import", "tsx", "server/src/main.ts"]
