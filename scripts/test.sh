#!/usr/bin/env bash
# The whole test suite: build the fixture apps (stdio and process tests run the built servers), then jest.
# Runs on the project's own Node 24 (npm puts node_modules/.bin first on PATH).
set -uo pipefail
cd "$(dirname "$0")/.."
export NODE_OPTIONS="--experimental-vm-modules ${NODE_OPTIONS:-}"
# The deploy-files tests validate docker-compose.yml with docker-compose (no engine needed).
if ! command -v docker-compose >/dev/null 2>&1; then
  if ! { apt-get update -qq && apt-get install -y -qq docker-compose >/dev/null; } >/tmp/ci-apt.log 2>&1; then
    tail -20 /tmp/ci-apt.log
    echo "could not install docker-compose (apt-get install -y docker-compose); the deploy-files tests need it" >&2
  fi
fi
# The service-page test drives Debian's Chromium with playwright-core; without it that test fails (never skips).
if [ ! -x /usr/bin/chromium ]; then
  if ! { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } >/tmp/ci-apt-chromium.log 2>&1; then
    tail -20 /tmp/ci-apt-chromium.log
    echo "could not install chromium (apt-get install -y chromium); the service-page test needs /usr/bin/chromium" >&2
  fi
fi

count_file="$(mktemp)"
export TEST_COUNT_FILE="$count_file"

if ! { nest build desk && nest build conformance; } >/tmp/nest-build.log 2>&1; then
  cat /tmp/nest-build.log
  echo "0 passed, 1 failed"
  exit 1
fi

jest --ci "$@"
status=$?
if [ -s "$count_file" ]; then
  line=$(cat "$count_file")
else
  line="0 passed, 1 failed"
  status=1
fi
rm -f "$count_file"
echo "$line"
exit $status
