#!/usr/bin/env bash
# Installs the Debian packages the tests need: redis-server (shared stores), nginx (load balancer)
# and chromium (the approval page's browser test drives it with playwright-core; never a browser
# download). Idempotent and quiet when all are there. Works as root, or through sudo otherwise.
# The packages' own system services are stopped and disabled: tests start private instances on
# loopback ports, and nothing is left listening on 6379 or 80.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then as_root=(); else as_root=(sudo -n); fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-debian: apt-get not found; install ${missing[*]} by hand" >&2
  exit 1
fi

echo "install-debian: installing ${missing[*]}"
# policy-rc.d exit 101 keeps dpkg from starting the packages' services during the install.
policy=/usr/sbin/policy-rc.d
had_policy=0
[ -e "$policy" ] && had_policy=1
if [ "$had_policy" -eq 0 ]; then
  printf '#!/bin/sh\nexit 101\n' | "${as_root[@]}" tee "$policy" >/dev/null
  "${as_root[@]}" chmod 755 "$policy"
fi
cleanup() { [ "$had_policy" -eq 0 ] && "${as_root[@]}" rm -f "$policy"; return 0; }
trap cleanup EXIT

"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

# Whatever started anyway (a machine with systemd ignores nothing): stop it and keep it off.
for service in redis-server nginx; do
  if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    "${as_root[@]}" systemctl disable --now "$service" >/dev/null 2>&1 || true
  elif command -v service >/dev/null 2>&1; then
    "${as_root[@]}" service "$service" stop >/dev/null 2>&1 || true
  fi
done
echo "install-debian: done"
