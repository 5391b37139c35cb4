# Parlor's image: `docker build -t parlor .` (or `docker compose up -d`).
#
# Pinned bases: the Rust toolchain and the Debian release (bump both on purpose). Four stages:
# cargo-chef plans the dependency graph, builds the dependencies alone (a layer kept until
# Cargo.lock changes: an edit of Parlor's sources does not rebuild SQLite), then Parlor itself,
# stripped, with `--locked`; the runtime is a slim Debian running it as uid 10001.

FROM rust:1.95.0-slim-bookworm AS chef
RUN cargo install cargo-chef --locked --version 0.1.78
WORKDIR /src

FROM chef AS plan
COPY . .
RUN cargo chef prepare --recipe-path recipe.json

FROM chef AS build
# A release binary without debug info and without symbols (the workspace's release profile
# keeps line tables for profiling; the image does not need them).
ENV CARGO_PROFILE_RELEASE_DEBUG=0 \
    CARGO_PROFILE_RELEASE_STRIP=symbols
# The build flags (.cargo/config.toml) must be the same for the dependencies and for Parlor.
COPY .cargo .cargo
COPY --from=plan /src/recipe.json recipe.json
RUN cargo chef cook --release --locked --package parlor-server --recipe-path recipe.json
COPY . .
RUN cargo build --release --locked --package parlor-server --bin parlor

FROM debian:12.12-slim
# ca-certificates and curl for the health check; versions follow Debian's security updates.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 parlor \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --no-create-home parlor \
    && mkdir -p /data \
    && chown 10001:10001 /data
COPY --from=build /src/target/release/parlor /usr/local/bin/parlor
# A bind mount of /data must be writable by uid 10001: `chown -R 10001:10001 DIR` on the host.
USER 10001:10001
WORKDIR /data
# glibc gives each thread that allocates a malloc arena of its own, and a cache of freed
# blocks: two arenas, and only blocks of up to 256 bytes cached per thread, held 53 KB per
# table at 250 busy tables (`parlor loadtest`) against 57 KB with glibc's defaults, at the same
# speed. docs/DEPLOY.md, "Memory".
ENV PARLOR_ADDR=0.0.0.0:8080 \
    PARLOR_DATA=/data \
    GLIBC_TUNABLES=glibc.malloc.arena_max=2:glibc.malloc.tcache_max=256
EXPOSE 8080
VOLUME ["/data"]
# Liveness, on the port of PARLOR_ADDR whatever it is set to: /livez answers while the process
# serves requests. Not /healthz, which fails while the disk is full or the database is down:
# a restart cures neither and would cut every game (docs/DEPLOY.md, "Health checks").
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 \
    CMD ["sh", "-c", "curl -fsS \"http://127.0.0.1:${PARLOR_ADDR##*:}/livez\" || exit 1"]
ENTRYPOINT ["parlor"]
CMD ["serve"]
