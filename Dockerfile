# Crewline's image: one image for every role (ROLE=api, worker or all) and for the migration Job.
#   docker build -t crewline .
#   docker run -e DATABASE_URL=… -e JWT_SECRET=… -e ENCRYPTION_KEY=… -e ROLE=api -p 5000:5000 crewline
#   docker run -e DATABASE_URL=… crewline migrate
# The build and start steps are scripts (scripts/container-build.sh, scripts/container-start.sh) that CI
# also runs on a bare machine, where no image can be built (apps/server/src/container-scripts.process.test.ts).
# See docs/decisions/0053-container-packaging.md.
ARG NODE_IMAGE=node:24-bookworm-slim

# Build: install every package (npm ci), build the web app, then keep only what runs, in /app.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY . .
RUN scripts/container-build.sh /app

# Run: the same Node 24 base without npm, the build's /app owned by root (the server cannot change its
# own code), and the unprivileged `node` user (uid 1000 in the Node images) running it.
FROM ${NODE_IMAGE}
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
  && mkdir -p /data \
  && chown 1000:1000 /data
COPY --from=build /app /app
WORKDIR /app
# DATA_DIR holds the organizations' files (file tools, output delivery); with DATABASE_URL unset it
# also holds an embedded PostgreSQL, for trying the image alone. DATABASE_WAIT_SECONDS: how long the
# start waits for DATABASE_URL to accept connections.
ENV NODE_ENV=production \
    ROLE=all \
    HOST=0.0.0.0 \
    PORT=5000 \
    DATA_DIR=/data \
    DATABASE_WAIT_SECONDS=60
VOLUME ["/data"]
EXPOSE 5000
# Numeric, so that Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
# ROLE=api or all: GET /api/health answers 200 (the database answers too); ROLE=worker: this container's
# worker wrote its heartbeat to the database in the last 45 s.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
  CMD ["/app/scripts/container-start.sh", "health"]
ENTRYPOINT ["/app/scripts/container-start.sh"]
CMD ["serve"]
