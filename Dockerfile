# Build stage: compile the `parlor` binary (the web client is embedded in it).
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release -p parlor-server --bin parlor

# Runtime stage: a small Debian with just the binary, run as an unprivileged user.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home /data parlor \
    && mkdir -p /data && chown parlor /data
COPY --from=build /src/target/release/parlor /usr/local/bin/parlor
USER parlor
WORKDIR /data
ENV PARLOR_ADDR=0.0.0.0:8080 PARLOR_DATA=/data
EXPOSE 8080
VOLUME ["/data"]
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s \
    CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["parlor"]
CMD ["serve"]
