# syntax=docker/dockerfile:1
# The Avatar Drive driving service (apps/service) as a container image.
#
#   docker build -t avatar-drive-service .
#   docker run -p 8710:8710 -e AVATAR_DRIVE_SIGNING_KEY=… -e AVATAR_DRIVE_APPS='[…]' avatar-drive-service
#
# Stage 1 builds the service and the workspace packages it runs (core, engine, avatars; client-core
# for the avatars' build; clang + lld for the engine's WebAssembly) with the pinned pnpm;
# `pnpm deploy` then copies the service with its production dependencies only into a
# self-contained directory. Stage 2 is that directory on a slim Node image, run as the unprivileged
# `node` user (uid 1000). See docs/deploy.md ("Container image").

ARG NODE_IMAGE=node:20.20-bookworm-slim

FROM ${NODE_IMAGE} AS build
ENV CI=true
WORKDIR /src
RUN npm install --global --no-fund --no-audit pnpm@10.34.9
# clang + lld build the engine's WebAssembly SIMD module (without them the engine is TypeScript only).
# Not pinned to a Debian revision: a point release replaces it and the old one leaves the mirror, so a
# pin breaks the build months later. The base image's release fixes the major version (bookworm: 14),
# and the engine's wasm tests hold any clang that builds it to the TypeScript path's frames.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends clang lld \
 && rm -rf /var/lib/apt/lists/*
# Manifests first, so the dependency layer is reused while only sources change.
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json .npmrc ./
COPY packages/core/package.json packages/core/
COPY packages/client-core/package.json packages/client-core/
COPY packages/engine/package.json packages/engine/
COPY packages/avatars/package.json packages/avatars/
COPY packages/test-chromium/package.json packages/test-chromium/
COPY apps/service/package.json apps/service/
RUN pnpm install --frozen-lockfile --filter "@avatar-drive/service..."
COPY tsconfig.base.json turbo.json ./
COPY packages/core packages/core
COPY packages/client-core packages/client-core
COPY packages/engine packages/engine
COPY packages/avatars packages/avatars
COPY packages/test-chromium packages/test-chromium
COPY apps/service apps/service
RUN pnpm --filter "@avatar-drive/service..." build \
 && pnpm --filter @avatar-drive/service deploy --prod --legacy /out

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    AVATAR_DRIVE_HOST=0.0.0.0 \
    AVATAR_DRIVE_PORT=8710
WORKDIR /app
COPY --from=build --chown=1000:1000 /out /app
USER 1000:1000
EXPOSE 8710
# Liveness: the process answers HTTP. (Kubernetes uses its own probes: /healthz and /readyz.)
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.AVATAR_DRIVE_PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# main.js handles SIGTERM itself (drain, then exit), so node runs as PID 1 without a shell.
ENTRYPOINT ["node", "dist/main.js"]
