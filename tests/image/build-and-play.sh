#!/usr/bin/env bash
# Builds Parlor's image from the Dockerfile with podman, starts docker-compose.yml, plays a whole
# match through the published port, takes the stack down and up again and finds the finished
# match in its volume, and checks the health check and the user Parlor runs as.
#
# CI's machines have no Docker engine and pull from no image registry, so the bases the
# Dockerfile names are made here, once per machine, and tagged with those names:
#   - the Debian one with debootstrap (slimmed as the official -slim images are; it is the
#     mirror's current point release, whatever the tag says);
#   - the Rust one from it plus the machine's own rustup toolchain of the pinned version.
# Containers reach Debian's mirror but not crates.io over TLS, so the crates the build needs
# (Parlor's and cargo-chef's) are vendored on this machine and lent to the build as a mount
# (podman build -v), where the stand-in Rust base's cargo looks for them instead of crates.io:
# the Dockerfile is built as it is, and a user with Docker gets exactly it.
#
# Where no container can run at all (no podman, not root, or `podman run` of the base fails) it
# says so and exits 0; any failure after that exits 1 with the logs.
#
# Kept between runs: the base images, podman's layer cache (old layers pile up: `podman image
# prune` frees them), and target/image (the vendored crates). docs/DEPLOY.md, "Docker", says
# how long a first run and a cached run take.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
here="$root/tests/image"
work="$root/target/image"
mkdir -p "$work"
export CONTAINERS_CONF="$here/containers.conf"
project=parlor-image-test
port=8080

started=$SECONDS
phase_start=$SECONDS
say() { printf '[image %4ds] %s\n' $((SECONDS - started)) "$*"; }
phase() { say "$1 done in $((SECONDS - phase_start)) s"; phase_start=$SECONDS; }
skip() {
  say "NOT RUN: $*"
  say "the image was not built and the compose stack was not played here"
  exit 0
}
fail() {
  say "FAILED: $*" >&2
  exit 1
}

# ---- Can a container run here at all?
command -v podman >/dev/null 2>&1 \
  || skip "podman is not installed (.ci/run installs it: apt-get install podman runc debootstrap)"
[ "$(id -u)" = 0 ] || skip "this needs root (debootstrap, and podman's rootful storage)"
command -v debootstrap >/dev/null 2>&1 || skip "debootstrap is not installed"
if ! podman info >"$work/podman-info.log" 2>&1; then
  cat "$work/podman-info.log"
  skip "podman does not work on this machine"
fi

# ---- The bases the Dockerfile names.
mapfile -t bases < <(awk 'toupper($1) == "FROM" { print $2 }' Dockerfile | grep ':' | sort -u)
rust_from="" debian_from=""
for b in "${bases[@]}"; do
  case "$b" in
    rust:*) rust_from="$b" ;;
    debian:*) debian_from="$b" ;;
    *) fail "the Dockerfile names a base this test cannot make: $b" ;;
  esac
done
[ -n "$rust_from" ] && [ -n "$debian_from" ] \
  || fail "expected a rust:* and a debian:* base in the Dockerfile, found: ${bases[*]}"
case "$debian_from" in
  debian:12*|debian:bookworm*) suite=bookworm ;;
  debian:13*|debian:trixie*) suite=trixie ;;
  *) fail "which Debian release is $debian_from?" ;;
esac
[[ "$rust_from" == *"-$suite" ]] || fail "$rust_from is not built on Debian $suite like $debian_from"
rust_version="${rust_from#rust:}"
rust_version="${rust_version%%-*}"
# Short names are Docker Hub's library: the tags are given in full, as podman resolves them.
debian_ref="docker.io/library/$debian_from"
rust_ref="docker.io/library/$rust_from"
say "bases: $debian_from (Debian $suite), $rust_from (Rust $rust_version)"

if ! podman image exists "$debian_ref"; then
  # The mirror apt uses on this machine (CI reaches Debian's mirrors, nothing else).
  mirror="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
    | sed -nE 's,^(URIs:[[:space:]]*|deb[[:space:]]+(\[[^]]*\][[:space:]]+)?)(https?://[^[:space:]]*/debian/?)([[:space:]].*)?$,\3,p' \
    | head -n1 || true)"
  mirror="${mirror:-http://deb.debian.org/debian}"
  mirror="${mirror%/}"
  security="${mirror%/debian}/debian-security"
  rootfs="$work/rootfs"
  rm -rf "$rootfs"
  say "making $debian_ref: debootstrap --variant=minbase $suite from $mirror"
  if ! debootstrap --variant=minbase "$suite" "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1; then
    tail -n 30 "$work/debootstrap.log"
    fail "debootstrap of Debian $suite failed (log above)"
  fi
  # Slim as the official images are (debuerreotype's --slim): no manuals, documentation or
  # translations, now or from later installs; apt's lists and downloads not kept in layers.
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
EOF
  find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
  rm -rf "$rootfs"/usr/share/{groff,info,linda,lintian/overrides,locale,man}/*
  cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
  printf 'Acquire::Languages "none";\n' >"$rootfs/etc/apt/apt.conf.d/docker-no-languages"
  rm -f "$rootfs/etc/apt/sources.list"
  cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: $suite $suite-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: $suite-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* "$rootfs"/var/log/*.log \
    "$rootfs"/tmp/* "$rootfs"/root/.bash_history
  : >"$rootfs/etc/resolv.conf"
  echo localhost >"$rootfs/etc/hostname"
  tar --numeric-owner -C "$rootfs" -c . \
    | podman import \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change 'CMD ["bash"]' \
      --message "debootstrap --variant=minbase $suite $mirror (stands in for $debian_from)" \
      - "$debian_ref" >/dev/null
  rm -rf "$rootfs"
  say "$debian_ref is Debian $(podman run --rm "$debian_ref" cat /etc/debian_version 2>/dev/null || echo '?')"
else
  say "$debian_ref exists: no debootstrap"
fi

if ! out="$(podman run --rm --network none "$debian_ref" true 2>&1)"; then
  printf '%s\n' "$out"
  skip "podman cannot run a container on this machine (above)"
fi
# The runtime stage installs curl from Debian's mirror: a container must reach it.
if ! out="$(timeout 180 podman run --rm "$debian_ref" apt-get -q update 2>&1)"; then
  printf '%s\n' "$out" | tail -n 20
  skip "a container here cannot reach Debian's mirror (above), which the image's build needs"
fi
phase "Debian base"

# The Rust base: rebuilt from podman's layer cache on each run (seconds), so a new toolchain
# or a new Debian base replaces it.
rustup_home="${RUSTUP_HOME:-$HOME/.rustup}"
toolchain=""
for t in "$rustup_home/toolchains/$rust_version-x86_64-unknown-linux-gnu" "$rustup_home"/toolchains/*; do
  if [ -x "$t/bin/rustc" ] && "$t/bin/rustc" --version 2>/dev/null | grep -q "^rustc $rust_version "; then
    toolchain="$(realpath "$t")"
    break
  fi
done
[ -n "$toolchain" ] \
  || skip "this machine has no Rust $rust_version toolchain in $rustup_home to make $rust_from from (rustup's site is out of reach)"
rustup_bin="$(command -v rustup || true)"
[ -n "$rustup_bin" ] || rustup_bin="${CARGO_HOME:-$HOME/.cargo}/bin/rustup"
[ -x "$rustup_bin" ] || skip "rustup is not installed: $rust_from cannot be made here"
ctx="$work/rust-context"
rm -rf "$ctx"
mkdir -p "$ctx/rustup/toolchains" "$ctx/cargo/bin"
name="$rust_version-x86_64-unknown-linux-gnu"
# Hard links where the toolchain is on the same disk, copies elsewhere; without its HTML docs.
cp -al "$toolchain" "$ctx/rustup/toolchains/$name" 2>/dev/null || cp -a "$toolchain" "$ctx/rustup/toolchains/$name"
rm -rf "$ctx/rustup/toolchains/$name/share/doc"
printf 'version = "12"\ndefault_toolchain = "%s"\nprofile = "minimal"\n' "$name" >"$ctx/rustup/settings.toml"
cp -L "$rustup_bin" "$ctx/cargo/bin/rustup"
for proxy in cargo cargo-clippy cargo-fmt cargo-miri clippy-driver rls rust-analyzer rust-gdb rust-gdbgui rust-lldb rustc rustdoc rustfmt; do
  ln -s rustup "$ctx/cargo/bin/$proxy"
done
say "making $rust_ref from $debian_ref and $toolchain"
if ! podman build --pull=never --format docker -f "$here/rust.Containerfile" \
  --build-arg DEBIAN="$debian_ref" --build-arg RUST_VERSION="$rust_version" \
  -t "$rust_ref" "$ctx" >"$work/rust-base.log" 2>&1; then
  tail -n 40 "$work/rust-base.log"
  fail "the Rust base image could not be made (log above)"
fi
rm -rf "$ctx"
phase "Rust base"

# ---- The crates, vendored for the build: Parlor's (Cargo.lock) and those of each tool the
# Dockerfile installs with `cargo install NAME --locked --version V` (their own Cargo.lock).
vendor="$work/vendor"
tools="$(grep -oE 'cargo install [A-Za-z0-9_-]+ --locked --version [0-9][0-9A-Za-z.+-]*' Dockerfile \
  | awk '{ print $3 "@" $NF }' | sort -u | tr '\n' ' ')"
stamp="$(cat Cargo.lock; echo "$tools, vendored by recipe 2")"
stamp="$(printf '%s' "$stamp" | sha256sum | cut -c1-16)"
if [ "$(cat "$vendor/.stamp" 2>/dev/null)" != "$stamp" ]; then
  say "vendoring the crates of Cargo.lock and of: ${tools:-no tool}"
  # (Outside the workspace, which would otherwise claim the tools' manifests.)
  tools_dir="$(mktemp -d)"
  rm -rf "$vendor"
  syncs=()
  for tool in $tools; do
    tname="${tool%@*}" tversion="${tool#*@}"
    fetch="$tools_dir/fetch-$tname"
    mkdir -p "$fetch/src"
    printf '[package]\nname = "fetch-%s"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\n%s = "=%s"\n\n[workspace]\n' \
      "$tname" "$tname" "$tversion" >"$fetch/Cargo.toml"
    : >"$fetch/src/lib.rs"
    (cd "$fetch" && cargo vendor -q "$tools_dir/crates-$tname" >/dev/null) \
      || fail "could not fetch $tname $tversion from crates.io"
    cp -r "$tools_dir/crates-$tname/$tname" "$tools_dir/$tname"
    rm -f "$tools_dir/$tname/.cargo-checksum.json"
    [ -f "$tools_dir/$tname/Cargo.lock" ] || fail "$tname $tversion has no Cargo.lock: --locked cannot build it"
    syncs+=(-s "$tools_dir/$tname/Cargo.toml")
  done
  cargo vendor -q --locked --manifest-path Cargo.toml "${syncs[@]}" "$vendor" >/dev/null \
    || fail "cargo vendor failed"
  # The tools themselves, as crates.io gives them (their dependencies are vendored above).
  for tool in $tools; do
    cp -r "$tools_dir/crates-${tool%@*}/${tool%@*}" "$vendor/${tool%@*}-${tool#*@}"
  done
  rm -rf "$tools_dir"
  echo "$stamp" >"$vendor/.stamp"
else
  say "vendored crates are current"
fi
phase "vendoring"

# ---- The image, from the Dockerfile as it is. The vendored crates are mounted at /mnt, where
# the Rust base's cargo looks for them, and which every Debian root has already: the mount
# leaves nothing behind in any layer.
say "podman build --pull=never -t parlor:latest . (log: target/image/build.log)"
if ! podman build --pull=never --format docker --layers -v "$vendor:/mnt:ro" \
  -t parlor:latest -f Dockerfile . >"$work/build.log" 2>&1; then
  tail -n 150 "$work/build.log"
  fail "podman build failed (the end of its log above)"
fi
phase "image build"
size="$(podman image inspect parlor:latest --format '{{.Size}}')"
say "image parlor:latest: $((size / 1000000)) MB ($size bytes)"
podman image inspect parlor:latest --format '{{json .Config.Healthcheck}}' | grep -q livez \
  || fail "the image has no health check"

# ---- docker-compose.yml as a user starts it: `docker-compose up -d`, here against podman's
# Docker API on a socket of this run's own.
command -v docker-compose >/dev/null 2>&1 || fail "docker-compose is not installed (apt-get install docker-compose)"
if python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$port" 2>/dev/null; then
  fail "port $port of 127.0.0.1, which docker-compose.yml publishes, is taken by another program"
fi
sock="$work/podman.sock"
rm -f "$sock"
podman system service --time=0 "unix://$sock" >"$work/podman-service.log" 2>&1 &
service_pid=$!
export DOCKER_HOST="unix://$sock"
compose() { docker-compose --ansi never -p "$project" -f "$root/docker-compose.yml" "$@"; }
stack_up=false
finish() {
  code=$?
  if [ "$stack_up" = true ]; then
    if [ "$code" != 0 ]; then
      say "the stack's logs:"
      compose ps || true
      compose logs --no-color --tail=200 || true
    fi
    compose down -v --timeout 10 >"$work/compose-down.log" 2>&1 || cat "$work/compose-down.log"
  fi
  kill "$service_pid" 2>/dev/null || true
  wait "$service_pid" 2>/dev/null || true
  rm -f "$sock"
}
trap finish EXIT
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || { cat "$work/podman-service.log"; fail "podman system service did not start"; }
# Leftovers of an interrupted run (containers, network, the volume) go first.
compose down -v --timeout 5 >/dev/null 2>&1 || true
stack_up=true
compose up -d --no-build || fail "docker-compose up -d failed"
ctr="$(compose ps -q parlor)"
[ -n "$ctr" ] || fail "docker-compose started no parlor container"
phase "compose up"

base="http://127.0.0.1:$port"
python3 "$here/play.py" play "$base" "$work/table-id" || fail "the match through $base did not play through"
phase "a whole match"

# Healthy: podman runs the image's HEALTHCHECK on a systemd timer, and CI's machines have no
# systemd, so it is run here by hand, as the timer would (until it reports healthy, 30 s at most).
health=""
for _ in $(seq 30); do
  if podman healthcheck run "$ctr" >"$work/health.log" 2>&1; then
    health="$(podman inspect "$ctr" --format '{{.State.Health.Status}}' 2>/dev/null \
      || podman inspect "$ctr" --format '{{.State.Healthcheck.Status}}')"
    [ "$health" = healthy ] && break
  fi
  sleep 1
done
[ "$health" = healthy ] || { cat "$work/health.log"; fail "the container's health check never reported healthy (${health:-no status})"; }
say "health check: $health"
uid="$(podman exec "$ctr" sh -c 'awk "/^Uid:/ { print \$2 }" /proc/1/status')"
comm="$(podman exec "$ctr" cat /proc/1/comm)"
[ "$comm" = parlor ] || fail "the container's process 1 is $comm, not parlor"
[ -n "$uid" ] && [ "$uid" != 0 ] || fail "parlor runs as uid ${uid:-?} in the container: root"
say "parlor runs as uid $uid ($(podman exec "$ctr" id -un)), not root"
phase "health and user"

# The volume keeps the tables: stop and start the stack, then take it down (the volume stays)
# and bring it up anew, and find the finished match each time.
compose stop --timeout 10 || fail "docker-compose stop failed"
say "stopped in $((SECONDS - phase_start)) s"
compose start || fail "docker-compose start failed"
python3 "$here/play.py" check "$base" "$work/table-id" || fail "after a stop and start the table is gone"
compose down --timeout 10 || fail "docker-compose down failed"
compose up -d --no-build || fail "docker-compose up -d (again) failed"
[ "$(compose ps -q parlor)" != "$ctr" ] || fail "docker-compose up reused the old container"
python3 "$here/play.py" check "$base" "$work/table-id" || fail "after down and up the table is gone"
phase "restarts"

say "image parlor:latest: $((size / 1000000)) MB; whole step: $((SECONDS - started)) s"
