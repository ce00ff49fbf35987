#!/usr/bin/env bash
# The whole test suite: build the fixture apps (stdio and process tests run the built servers), then jest.
# Runs on the project's own Node 24 (npm puts node_modules/.bin first on PATH).
set -uo pipefail
cd "$(dirname "$0")/.."
export NODE_OPTIONS="--experimental-vm-modules --disable-warning=ExperimentalWarning ${NODE_OPTIONS:-}"
# Node's compile cache (checked against each file's content): the hundreds of processes the suites start (servers,
# tsc, eslint, nest) compile the same modules once between them instead of once each.
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-${TMPDIR:-/tmp}/node-compile-cache}"
# The deploy-files tests validate docker-compose.yml with docker-compose (no engine needed).
if ! command -v docker-compose >/dev/null 2>&1; then
  if ! { apt-get update -qq && apt-get install -y -qq docker-compose >/dev/null; } >/tmp/ci-apt.log 2>&1; then
    tail -20 /tmp/ci-apt.log
    echo "could not install docker-compose (apt-get install -y docker-compose); the deploy-files tests need it" >&2
  fi
fi
# The compose process test runs the compose file's nginx.conf in the real nginx (Debian's nginx-light); the
# package starts a daemon on port 80 when installed, which the tests do not use: stop it.
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  if { apt-get update -qq && apt-get install -y -qq --no-install-recommends nginx-light >/dev/null; } >/tmp/ci-apt-nginx.log 2>&1; then
    /usr/sbin/nginx -s quit >/dev/null 2>&1 || true
  else
    tail -20 /tmp/ci-apt-nginx.log
    echo "could not install nginx-light (apt-get install -y nginx-light); the compose process test needs nginx" >&2
  fi
fi
# The service-page test drives Debian's Chromium with playwright-core; without it that test fails (never skips).
if [ ! -x /usr/bin/chromium ]; then
  if ! { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } >/tmp/ci-apt-chromium.log 2>&1; then
    tail -20 /tmp/ci-apt-chromium.log
    echo "could not install chromium (apt-get install -y chromium); the service-page test needs /usr/bin/chromium" >&2
  fi
fi

# The alert-rules test checks deploy/compose's Prometheus configuration and rules with promtool (Debian's
# prometheus package; the tests never start its daemon).
if ! command -v promtool >/dev/null 2>&1; then
  if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends prometheus >/dev/null; } >/tmp/ci-apt-prometheus.log 2>&1; then
    tail -20 /tmp/ci-apt-prometheus.log
    echo "could not install prometheus (apt-get install -y prometheus); the alert-rules test needs promtool" >&2
  fi
fi

# redis-server: the deployment tests run it with the deployment files' own arguments (password, maxmemory) and the
# topology tests start their own, even where a Redis already answers on 6379 (installed when missing).
if ! command -v redis-server >/dev/null 2>&1; then
  { apt-get update -qq && apt-get install -y -qq redis-server >/dev/null; } >/tmp/ci-apt-redis.log 2>&1 ||
    { tail -20 /tmp/ci-apt-redis.log; echo "could not install redis-server; the Redis tests need it" >&2; }
fi
# The Redis store suites use the machine's Redis on 127.0.0.1:6379 (each on its own key prefix); start one when
# none answers.
if ! (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null 2>&1 ||
    echo "could not start redis-server; the Redis store tests need Redis on 127.0.0.1:6379" >&2
  sleep 1
fi

work="$(mktemp -d)"
export TEST_COUNT_FILE="$work/count" TEST_TIMING_FILE="$work/suites" TEST_CPU_FILE="$work/cpu"
phases="$work/phases"
# Milliseconds since the epoch, and "label<TAB>seconds since <ms>" for the phases file (scripts/lib/time-report.mjs).
ms() { local t="${EPOCHREALTIME//[!0-9]/}"; echo $((10#$t / 1000)); } # the separator follows the locale
seconds_since() { local d=$(($(ms) - $1)); printf '%d.%03d' $((d / 1000)) $((d % 1000)); }
test_start=$(ms)

# Static checks count as tests: each one that fails adds a failure to the totals line. `check ID LABEL COMMAND…`
# runs one, keeping its output, exit status and seconds in $work/ID.* for the summary below.
check() {
  local id="$1" label="$2" start
  shift 2
  start=$(ms)
  "$@" >"$work/$id.log" 2>&1
  echo "$?" >"$work/$id.status"
  printf '%s\t%s\n' "$label" "$(seconds_since "$start")" >"$work/$id.phase"
}
# Two lanes. The first builds what jest runs (the fixture apps, the schematics), then runs jest; the second runs the
# static checks beside them, the contract gate first: it builds every app under apps/, which suites build too, so
# jest starts once it is done (never two builds of one app at once). The rest of the checks (typecheck, lint,
# format) use the cores the suites leave idle while they wait on their servers.
(
  check contract "contract:check (every app under apps/, before jest)" npm run -s contract:check
  touch "$work/contract.done"
  check typecheck "typecheck (tsc --noEmit, beside jest)" npm run -s typecheck
  check lint "lint (eslint ., beside jest)" eslint .
  check format "format (prettier --check ., beside jest)" prettier --check .
) &
static_lane=$!
check build "build (fixture apps desk, conformance; schematics)" \
  bash -c 'node scripts/start.mjs --build-only desk conformance && node scripts/tool.mjs --build-only generate'
if [ "$(cat "$work/build.status")" != 0 ]; then
  cat "$work/build.log"
  kill "$static_lane" 2>/dev/null
  echo "0 passed, 1 failed"
  rm -rf "$work"
  exit 1
fi
while [ ! -e "$work/contract.done" ] && kill -0 "$static_lane" 2>/dev/null; do sleep 0.2; done
printf 'before jest (the build, and the contract gate beside it)\t%s\n' "$(seconds_since "$test_start")" >"$phases"

# Three workers on two cores: the end-to-end suites spend much of their time waiting (on servers, timers, child
# processes), and a third worker fills that time (jest took 1,026 s with two, 747 s with three, on this machine).
jest_start=$(ms)
jest --ci --maxWorkers=3 "$@"
status=$?
printf 'jest (--maxWorkers=3)\t%s\n' "$(seconds_since "$jest_start")" >>"$phases"
wait "$static_lane"

checks_passed=0
checks_failed=0
for id in build contract typecheck lint format; do
  cat "$work/$id.phase" >>"$phases"
  [ "$id" = build ] && continue # the build is not a check: it failing stops the run above
  if [ "$(cat "$work/$id.status")" = 0 ]; then
    checks_passed=$((checks_passed + 1))
  else
    checks_failed=$((checks_failed + 1))
    echo "FAILED: $(cut -f1 "$work/$id.phase")" >&2
    tail -60 "$work/$id.log" >&2
  fi
done
printf 'the whole test command (after installing tools)\t%s\n' "$(seconds_since "$test_start")" >>"$phases"
node scripts/lib/time-report.mjs "$phases" "$TEST_TIMING_FILE" "$TEST_CPU_FILE"
if [ -s "$TEST_COUNT_FILE" ]; then
  read -r passed _ failed _ <"$TEST_COUNT_FILE"
else
  passed=0
  failed=1
  status=1
fi
rm -rf "$work"
[ "$checks_failed" -gt 0 ] && status=1
echo "$((passed + checks_passed)) passed, $((failed + checks_failed)) failed"
exit $status
