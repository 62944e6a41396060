#!/usr/bin/env bash
# Tests the Debian package in a clean Debian 12: builds it (scripts/package-deb.sh), checks it with
# lintian, installs it with apt into a fresh `debootstrap --variant=minbase bookworm` root (apt resolves its
# Depends from the mirror), then in that root: runs `sanehosts --version`, `catalog` and `compile` of the
# packaged example list, checks the user, the store and the enabled units, verifies the installed units with
# the root's own `systemd-analyze verify`, starts the dashboard as its unit does (User, Group, Environment,
# EnvironmentFile, ExecStart, UMask, NoNewPrivileges and the empty capability set read from the installed
# sanehosts-serve.service) on a free port set in /etc/default/sanehosts and fetches /metrics (or / where
# the binary has no /metrics). Where systemd-nspawn (systemd-container) can boot the root, it then boots it:
# the dashboard, the apply path, the timers and the update, apply and expire services run under systemd
# with all their hardening. Then it removes the package (only the store, the user and the conffile may
# stay) and purges it (nothing may stay), and installs and purges it again where systemd-sysusers makes
# the user.
#
#   ./scripts/test-package.sh [--deb PATH] [--binary PATH]
#
# --deb PATH      test this package instead of building one
# --binary PATH   build the package from this sanehosts (default: scripts/package-deb.sh builds a release one)
#
# Needs root, debootstrap and the Debian mirror (SANEHOSTS_DEBIAN_MIRROR, default http://deb.debian.org/debian).
# The bootstrapped root is cached as a tarball in SANEHOSTS_DEBOOTSTRAP_CACHE (default
# /var/cache/sanehosts-tests); delete it to start from a new one. The chroot's mounts (/proc, /dev, /sys)
# live in a mount namespace of their own, so none outlives the test. Prints each step; exits non-zero with
# the reason on any failure.
set -euo pipefail
# debootstrap, chroot and the root's own tools live in sbin, which a test runner's PATH may lack.
export PATH=$PATH:/usr/sbin:/sbin

# Each step with the seconds since the test started.
step() { printf '==> %s (%d s)\n' "$*" "$(($(date +%s) - ${SANEHOSTS_PACKAGE_TEST_STARTED:-$(date +%s)}))"; }
note() { printf '    %s\n' "$*"; }
fail() {
  printf 'test-package.sh: FAIL: %s\n' "$*" >&2
  exit 1
}

# MARK: Inside the mount namespace: mount, install, check, remove, purge.

# Runs a command in the root with a clean environment.
in_root() {
  chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive "$@"
}

# The values of KEY= in a unit file, one per line, in order.
unit_values() { sed -n "s/^$2=//p" "$1"; }

# Splits a unit or environment file value into words as systemd does for simple quoting.
words() { printf '%s\n' "$1" | xargs -r printf '%s\n'; }

# Fetches http://127.0.0.1:PORT/PATH into FILE (status line, headers, body); prints the status code.
http_get() {
  timeout 15 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
    printf "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n" "$2" "$1" >&3
    cat <&3' _ "$1" "$2" >"$3" 2>/dev/null || true
  head -1 "$3" | awk '{print $2}'
}

dashboard=""
mounts=()

# /proc, /dev, /dev/pts and /sys in the root, for apt, dpkg and the programs run there.
mount_root() {
  mount -t proc proc "$root/proc" && mounts+=("$root/proc")
  mount --bind /dev "$root/dev" && mounts+=("$root/dev")
  mount --bind /dev/pts "$root/dev/pts" && mounts+=("$root/dev/pts")
  mount -t sysfs -o ro sysfs "$root/sys" && mounts+=("$root/sys")
}

# Unmounts what mount_root (or the nspawn step) mounted, last first.
unmount_all() {
  local index
  for ((index = ${#mounts[@]} - 1; index >= 0; index--)); do
    umount "${mounts[index]}" 2>/dev/null || umount -l "${mounts[index]}" || true
  done
  mounts=()
}

cleanup_namespace() {
  local status=$?
  if [ -n "$dashboard" ] && kill -0 "$dashboard" 2>/dev/null; then
    kill -TERM "$dashboard" 2>/dev/null || true
    sleep 1
    kill -KILL "$dashboard" 2>/dev/null || true
  fi
  unmount_all
  exit "$status"
}

# Boots the root with systemd-nspawn -b where that works: the units then run under systemd itself, with
# every hardening setting. A probe unit in the root checks them and powers the container off.
boot_with_nspawn() {
  local port=$1
  step "Booting the root with systemd-nspawn -b: the units under systemd itself"
  if ! command -v systemd-nspawn >/dev/null 2>&1; then
    note "systemd-nspawn is not installed (apt-get install systemd-container): not booted; the run above stands in"
    return 0
  fi
  local knows_reapply=false knows_expire=false
  in_root sanehosts help reapply >/dev/null 2>&1 && knows_reapply=true
  in_root sanehosts help allow expire >/dev/null 2>&1 && knows_expire=true
  # A file root wrote into the store, as a root apply would: the apply service's ExecStopPost gives it back.
  touch "$root/var/lib/sanehosts/written-by-root"
  # A source for sanehosts-update.service to update: the packaged example, a local file.
  in_root setpriv --reuid=sanehosts --regid=sanehosts --init-groups env SANEHOSTS_HOME=/var/lib/sanehosts \
    sanehosts sources add /usr/share/doc/sanehosts/examples/blocklist.hosts --name example >/dev/null ||
    fail "sanehosts sources add of the example list failed"
  # A hostile copy of the store's database, as the sanehosts account could write it: a deny rule whose pattern
  # holds dnsmasq directives, past `deny add` (the probe puts it in place at its end).
  local hostile=false
  if command -v python3 >/dev/null 2>&1 && python3 - "$root/var/lib/sanehosts/sanehosts.sqlite" "$root/root/hostile.sqlite" <<'PY'
import sqlite3, sys
source, target = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])
source.backup(target)
target.execute(
    "INSERT INTO rule (profileID, action, kind, pattern, addedAt) SELECT id, 'deny', 'exact', ?, 0 FROM profile WHERE isActive",
    ("a.website/\nconf-file=/var/lib/sanehosts/evil.conf\nserver=/b.website",))
target.commit()
target.execute("PRAGMA journal_mode=DELETE")
PY
  then
    hostile=true
  else
    note "python3 is not installed: the hostile store is not put through the apply unit"
  fi
  cat >"$root/etc/systemd/system/package-probe.service" <<'UNIT'
[Unit]
Description=The package test's probe (scripts/test-package.sh)
After=multi-user.target sanehosts-serve.service sanehosts-apply.path

[Service]
Type=oneshot
ExecStart=/bin/bash /root/package-probe.sh
UNIT
  cat >"$root/root/package-probe.sh" <<'PROBE'
port=$1
exec >/root/package-probe.out 2>&1
say() { printf '%s=%s\n' "$1" "$2"; }
# systemctl show KEY=VALUE lines, prefixed with a name.
show() { systemctl show -p "$2" "$3" | sed "s/^/$1./"; }
# Waits until a oneshot service is no longer starting.
settle() {
  local i
  for i in $(seq 100); do
    case "$(systemctl show -p ActiveState --value "$1")" in activating | deactivating) sleep 0.1 ;; *) return ;; esac
  done
}
get() {
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
  printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n' "$1" "$port" >&3
  head -1 <&3 | awk '{print $2}'
  exec 3<&-
}
for i in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
show serve ActiveState,SubState,NRestarts,User sanehosts-serve.service
status=$(get /metrics)
if [ "$status" = 200 ]; then say http.path /metrics; else say http.path /; status=$(get /); fi
say http.status "$status"
show path ActiveState sanehosts-apply.path
show update-timer ActiveState,NextElapseUSecRealtime sanehosts-update.timer
show expire-timer ActiveState sanehosts-expire.timer
# The dashboard's way to ask for an apply: touch the request file as sanehosts.
setpriv --reuid=sanehosts --regid=sanehosts --init-groups touch /var/lib/sanehosts/apply.request
sleep 1
settle sanehosts-apply.service
show apply Result,ExecMainStatus,NRestarts sanehosts-apply.service
say apply.triggered "$(journalctl -q -u sanehosts-apply.service --no-pager | grep -c 'Started\|Starting\|Failed to start\|Finished')"
systemctl start sanehosts-expire.service
show expire Result,ExecMainStatus sanehosts-expire.service
applies_before=$(journalctl -q -u sanehosts-apply.service --no-pager | grep -c 'Starting')
systemctl start sanehosts-update.service
show update Result,ExecMainStatus sanehosts-update.service
# Its ExecStartPost starts sanehosts-apply.service (the reapply in that unit's sandbox): wait for it, so
# the probe below runs its own command, not that job.
sleep 1
settle sanehosts-apply.service
say update.applied "$(( $(journalctl -q -u sanehosts-apply.service --no-pager | grep -c 'Starting') - applies_before ))"
say update.names "$(setpriv --reuid=sanehosts --regid=sanehosts --init-groups env SANEHOSTS_HOME=/var/lib/sanehosts \
  sanehosts status 2>&1 | grep -c 'example.*updated')"
say update.log "$(journalctl -q -u sanehosts-update.service --no-pager | tail -3 | tr '\n' '|')"
# The dashboard's Apply of /etc/hosts: it runs as sanehosts and may not write it, so it previews the change
# and writes apply.request; the path unit starts sanehosts-apply.service, which applies it as root.
post() {
  local body=$2 answer
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
  printf 'POST %s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nContent-Type: application/json\r\nX-CSRF-Token: %s\r\nContent-Length: %s\r\nConnection: close\r\n\r\n%s' \
    "$1" "$port" "$csrf" "${#body}" "$body" >&3
  answer=$(cat <&3)
  exec 3<&-
  printf '%s' "$answer"
}
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET /api/session HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n' "$port" >&3
csrf=$(cat <&3 | sed -n 's/.*"csrf" *: *"\([0-9a-f]*\)".*/\1/p')
exec 3<&-
requests_before=$(journalctl -q -u sanehosts-apply.service --no-pager | grep -c 'Starting')
answer=$(post /api/apply '{"target":"hosts"}')
say dashboard.status "$(printf '%s' "$answer" | head -1 | awk '{print $2}')"
say dashboard.requested "$(printf '%s' "$answer" | grep -c '"requested" *: *true')"
say dashboard.answer "$(printf '%s' "$answer" | tail -1 | cut -c1-300) (csrf ${#csrf} characters)"
for i in $(seq 100); do grep -q 'ads\.example\.com' /etc/hosts && break; sleep 0.1; done
settle sanehosts-apply.service
say dashboard.applied "$(( $(journalctl -q -u sanehosts-apply.service --no-pager | grep -c 'Starting') - requests_before ))"
say dashboard.hosts "$(grep -c 'ads\.example\.com' /etc/hosts)"
say dashboard.request-left "$([ -e /var/lib/sanehosts/apply.request ] && echo yes || echo no)"
# The section taken off again (through SaneHosts, so its ledger agrees), for the sandbox probe below.
SANEHOSTS_HOME=/var/lib/sanehosts sanehosts disable --quiet --hosts-file /etc/hosts
chown -R -h sanehosts:sanehosts /var/lib/sanehosts
say dashboard.disabled "$(grep -c 'ads\.example\.com' /etc/hosts)"
# The apply service's sandbox with today's `apply` in place of its command: writing /etc/hosts and a
# dnsmasq drop-in must work, writing into /etc/cron.d must not.
mkdir -p /run/systemd/system/sanehosts-apply.service.d
cat >/run/systemd/system/sanehosts-apply.service.d/probe.conf <<'DROPIN'
[Service]
ExecStart=
ExecStart=/usr/bin/sanehosts apply --quiet --hosts-file /etc/hosts
ExecStart=/usr/bin/sanehosts apply --quiet --target dnsmasq --no-check
ExecStart=-/usr/bin/sanehosts apply --quiet --hosts-file /etc/cron.d/package-probe
DROPIN
systemctl daemon-reload
cp -p /etc/hosts /root/hosts.before
made_cron=false
[ -d /etc/cron.d ] || { mkdir /etc/cron.d && made_cron=true; }
systemctl start sanehosts-apply.service
show sandboxed Result,ExecMainStatus sanehosts-apply.service
say sandboxed.hosts "$(grep -c 'ads\.example\.com' /etc/hosts)"
say sandboxed.dnsmasq "$(grep -c 'ads\.example\.com' /etc/sanehosts/dnsmasq.servers 2>/dev/null)"
say sandboxed.cron "$(if [ -e /etc/cron.d/package-probe ]; then echo written; else echo refused; fi)"
say sandboxed.log "$(journalctl -q -u sanehosts-apply.service --no-pager | tail -4 | tr '\n' '|')"
say sandboxed.cron-error "$(journalctl -q -u sanehosts-apply.service --no-pager | grep -m1 'cron.d' | sed 's/^.*\]: //')"
rm -rf /run/systemd/system/sanehosts-apply.service.d
systemctl daemon-reload
cp -p /root/hosts.before /etc/hosts
rm -rf /root/hosts.before /etc/sanehosts /etc/cron.d/package-probe
if $made_cron; then rmdir /etc/cron.d; fi
say store.foreign "$(find /var/lib/sanehosts ! -user sanehosts -printf '%P ' | sed 's/ $//')"
# A hostile store: what the sanehosts account can do to the root apply unit, one attack a round.
request() {
  systemctl reset-failed sanehosts-apply.service 2>/dev/null
  setpriv --reuid=sanehosts --regid=sanehosts --init-groups sh -c \
    'cat >/var/lib/sanehosts/.request && mv /var/lib/sanehosts/.request /var/lib/sanehosts/apply.request'
  sleep 1
  settle sanehosts-apply.service
}
store_as_sanehosts() { setpriv --reuid=sanehosts --regid=sanehosts --init-groups "$@"; }
if [ -e /root/hostile.sqlite ]; then
  cp -p /etc/hosts /root/hosts.before
  systemctl stop sanehosts-serve.service
  mkdir /root/good-store && mv /var/lib/sanehosts/sanehosts.sqlite* /root/good-store/
  install -o sanehosts -g sanehosts -m 0600 /root/hostile.sqlite /var/lib/sanehosts/sanehosts.sqlite
  printf 'server=/bank.website/203.0.113.7\n' | store_as_sanehosts tee /var/lib/sanehosts/evil.conf >/dev/null
  logged=$(journalctl -q -u sanehosts-apply.service --no-pager | wc -l)
  printf '[{"path":"/etc/hosts","requestedAt":"2026-12-02T00:00:00Z","target":"hosts"},{"path":"/etc/sanehosts/dnsmasq.servers","requestedAt":"2026-12-02T00:00:00Z","target":"dnsmasq"}]' | request
  say hostile.rule.log "$(journalctl -q -u sanehosts-apply.service --no-pager | tail -n +$((logged + 1)) | grep -m1 'nothing was applied' | sed 's/^.*\]: //')"
  say hostile.rule.written "$(cat /etc/hosts /etc/sanehosts/dnsmasq.servers 2>/dev/null | grep -c 'conf-file\|b\.website')"
  rm -rf /etc/sanehosts /var/lib/sanehosts/sanehosts.sqlite* /var/lib/sanehosts/evil.conf
  mv /root/good-store/* /var/lib/sanehosts/ && rmdir /root/good-store
  # The sandbox probe above put /etc/hosts back behind SaneHosts' back: the ledger is brought in line
  # (applied, then taken off through SaneHosts), so the next request has a change to write, and backs up first.
  SANEHOSTS_HOME=/var/lib/sanehosts sanehosts apply --quiet --force --hosts-file /etc/hosts
  SANEHOSTS_HOME=/var/lib/sanehosts sanehosts disable --quiet --hosts-file /etc/hosts
  chown -R -h sanehosts:sanehosts /var/lib/sanehosts
  cp -p /etc/hosts /root/hosts.before
  # backups/ a link to a root folder under /etc (which the unit may write): no backup may land there.
  mkdir -m 0700 /etc/sanehosts-victim && echo keep >/etc/sanehosts-victim/hosts-20260101T000000Z-1
  store_as_sanehosts sh -c 'rm -rf /var/lib/sanehosts/backups && ln -s /etc/sanehosts-victim /var/lib/sanehosts/backups'
  logged=$(journalctl -q -u sanehosts-apply.service --no-pager | wc -l)
  printf '[{"path":"/etc/hosts","requestedAt":"2026-12-02T00:00:00Z","target":"hosts"}]' | request
  say hostile.backups.log "$(journalctl -q -u sanehosts-apply.service --no-pager | tail -n +$((logged + 1)) | grep -m1 'symbolic link' | sed 's/^.*\]: //')"
  say hostile.backups.journal "$(journalctl -q -u sanehosts-apply.service -u sanehosts-apply.path --no-pager | tail -n +$((logged + 1)) | tail -6 | tr '\n' '|')"
  say hostile.backups.path "$(systemctl show -p ActiveState,Result --value sanehosts-apply.path | tr '\n' ' ')"
  say hostile.backups.victim "$(ls /etc/sanehosts-victim | tr '\n' ' ' | sed 's/ $//')"
  say hostile.backups.hosts "$(cmp -s /etc/hosts /root/hosts.before && echo unchanged || echo changed)"
  store_as_sanehosts sh -c 'rm /var/lib/sanehosts/backups && mkdir -m 0700 /var/lib/sanehosts/backups'
  rm -rf /etc/sanehosts-victim
  # apply.lock a link to /etc/nologin: opened with O_CREAT, it would lock out every other login.
  store_as_sanehosts sh -c 'rm -f /var/lib/sanehosts/apply.lock && ln -s /etc/nologin /var/lib/sanehosts/apply.lock'
  logged=$(journalctl -q -u sanehosts-apply.service --no-pager | wc -l)
  printf '[{"path":"/etc/hosts","requestedAt":"2026-12-02T00:00:00Z","target":"hosts"}]' | request
  say hostile.lock.log "$(journalctl -q -u sanehosts-apply.service --no-pager | tail -n +$((logged + 1)) | grep -m1 'symbolic link' | sed 's/^.*\]: //')"
  say hostile.lock.nologin "$([ -e /etc/nologin ] && echo created || echo absent)"
  store_as_sanehosts rm -f /var/lib/sanehosts/apply.lock
  rm -f /etc/nologin
  cp -p /root/hosts.before /etc/hosts
  # Each round's reapply also did the ledger's places, the sandbox probe's dnsmasq drop-in among them.
  rm -rf /root/hosts.before /root/hostile.sqlite /etc/sanehosts
  systemctl start sanehosts-serve.service
  say hostile.done yes
fi
say serve.log "$(journalctl -q -u sanehosts-serve.service --no-pager | tail -3 | tr '\n' '|')"
say apply.log "$(journalctl -q -u sanehosts-apply.service --no-pager | tail -2 | tr '\n' '|')"
say done yes
systemctl poweroff
PROBE
  sed -i "s|^ExecStart=/bin/bash /root/package-probe.sh$|& $port|" "$root/etc/systemd/system/package-probe.service"
  ln -sf /etc/systemd/system/package-probe.service "$root/etc/systemd/system/multi-user.target.wants/package-probe.service"
  # systemd-nspawn mounts the root's /proc, /dev and /sys itself, and wants /run on a tmpfs.
  unmount_all
  mount -t tmpfs tmpfs /run && mounts+=(/run)
  local booted=0
  timeout 120 systemd-nspawn --quiet --register=no --keep-unit --console=read-only --boot --directory="$root" \
    >"$work/nspawn.log" 2>&1 </dev/null || booted=$?
  unmount_all
  mount_root
  rm -f "$root/etc/systemd/system/package-probe.service" \
    "$root/etc/systemd/system/multi-user.target.wants/package-probe.service" "$root/root/package-probe.sh"
  local out=$root/root/package-probe.out
  if ! grep -q '^done=yes$' "$out" 2>/dev/null; then
    note "systemd-nspawn could not boot the root here (exit status $booted): not booted; the run above stands in"
    tail -5 "$work/nspawn.log" | sed 's/^/      /'
    [ ! -s "$out" ] || sed 's/^/      /' "$out"
    rm -f "$out"
    return 0
  fi
  probe() { sed -n "s/^$1=//p" "$out" | tail -1; }
  note "serve: $(probe serve.ActiveState)/$(probe serve.SubState) as $(probe serve.User), restarts $(probe serve.NRestarts); GET $(probe http.path): $(probe http.status)"
  [ "$(probe serve.ActiveState)/$(probe serve.SubState)" = active/running ] ||
    fail "sanehosts-serve.service is not running under systemd: $(probe serve.log)"
  [ "$(probe serve.NRestarts)" = 0 ] || fail "sanehosts-serve.service restarted: $(probe serve.log)"
  [ "$(probe http.status)" = 200 ] || fail "the dashboard under systemd answered GET $(probe http.path) with $(probe http.status)"
  note "sanehosts-apply.path: $(probe path.ActiveState); timers: update $(probe update-timer.ActiveState), expire $(probe expire-timer.ActiveState)"
  [ "$(probe path.ActiveState)" = active ] || fail "sanehosts-apply.path is not active"
  [ "$(probe update-timer.ActiveState)" = active ] || fail "sanehosts-update.timer is not active"
  [ "$(probe expire-timer.ActiveState)" = active ] || fail "sanehosts-expire.timer is not active"
  [ "$(probe apply.triggered)" != 0 ] || fail "touching apply.request did not start sanehosts-apply.service"
  note "apply.request started sanehosts-apply.service: $(probe apply.Result) (status $(probe apply.ExecMainStatus))"
  if $knows_reapply; then
    [ "$(probe apply.Result)" = success ] || fail "sanehosts-apply.service failed: $(probe apply.log)"
  else
    note "  (this binary has no \`reapply\` yet: its usage error is expected)"
  fi
  note "sanehosts-expire.service: $(probe expire.Result) (status $(probe expire.ExecMainStatus))"
  if $knows_expire; then
    [ "$(probe expire.Result)" = success ] || fail "sanehosts-expire.service failed"
  else
    note "  (this binary has no \`allow expire\` yet: its usage error is expected)"
  fi
  note "sanehosts-update.service: update exited $(probe update.ExecMainStatus), the service $(probe update.Result)"
  [ "$(probe update.ExecMainStatus)" = 0 ] || fail "sanehosts update failed under its unit: $(probe update.log)"
  [ "$(probe update.names)" = 1 ] || fail "sanehosts-update.service did not update the example source: $(probe update.log)"
  if $knows_reapply; then
    [ "$(probe update.Result)" = success ] || fail "sanehosts-update.service failed: $(probe update.log)"
    [ "$(probe update.applied)" -ge 1 ] || fail "sanehosts-update.service did not start sanehosts-apply.service"
    note "  then started sanehosts-apply.service (the reapply in its sandbox)"
  else
    note "  (its ExecStartPost, \`reapply\`, is not in this binary yet)"
  fi
  if $knows_reapply; then
    note "the dashboard's Apply of /etc/hosts: HTTP $(probe dashboard.status), requested $(probe dashboard.requested); sanehosts-apply.service started $(probe dashboard.applied) time(s); /etc/hosts $( [ "$(probe dashboard.hosts)" != 0 ] && echo written || echo "NOT written"); request left: $(probe dashboard.request-left)"
    [ "$(probe dashboard.status)" = 200 ] || fail "the dashboard's POST /api/apply answered $(probe dashboard.status): $(probe dashboard.answer)"
    [ "$(probe dashboard.requested)" = 1 ] || fail "the dashboard, as sanehosts, did not ask the privileged unit"
    [ "$(probe dashboard.hosts)" != 0 ] || fail "sanehosts-apply.service did not write /etc/hosts for the dashboard"
    [ "$(probe dashboard.request-left)" = no ] || fail "apply.request was left behind (the path unit would start again)"
    [ "$(probe dashboard.disabled)" = 0 ] || fail "sanehosts disable did not take the dashboard's section off /etc/hosts"
  fi
  note "its sandbox, running today's apply: $(probe sandboxed.Result); /etc/hosts $( [ "$(probe sandboxed.hosts)" != 0 ] && echo written || echo "NOT written"), the dnsmasq drop-in $( [ "$(probe sandboxed.dnsmasq)" != 0 ] && echo written || echo "NOT written"), /etc/cron.d $(probe sandboxed.cron)"
  [ "$(probe sandboxed.hosts)" != 0 ] || fail "sanehosts apply could not write /etc/hosts in the apply service's sandbox: $(probe sandboxed.log)"
  [ "$(probe sandboxed.dnsmasq)" != 0 ] || fail "sanehosts apply could not write the dnsmasq drop-in in the apply service's sandbox: $(probe sandboxed.log)"
  [ "$(probe sandboxed.cron)" = refused ] || fail "the apply service's sandbox let it write into /etc/cron.d"
  note "  /etc/cron.d: $(probe sandboxed.cron-error)"
  [ "$(probe sandboxed.Result)" = success ] || fail "the apply service's sandbox failed: $(probe sandboxed.log)"
  [ -z "$(probe store.foreign)" ] || fail "files in the store not owned by sanehosts after the root services: $(probe store.foreign)"
  note "every file in the store is sanehosts' again after the root services (their ExecStopPost chown)"
  if $hostile && $knows_reapply; then
    step "A hostile store through sanehosts-apply.service: what the sanehosts account can make root do"
    [ "$(probe hostile.done)" = yes ] || fail "the hostile store's rounds did not run"
    note "a deny rule with dnsmasq directives, written into the database: $(probe hostile.rule.log)"
    [ -n "$(probe hostile.rule.log)" ] || fail "the apply unit did not refuse the hostile rule by name"
    [ "$(probe hostile.rule.written)" = 0 ] || fail "the hostile rule's lines reached /etc/hosts or the dnsmasq drop-in"
    note "backups/ a link to /etc/sanehosts-victim: $(probe hostile.backups.log); the folder holds $(probe hostile.backups.victim); /etc/hosts $(probe hostile.backups.hosts)"
    [ -n "$(probe hostile.backups.log)" ] ||
      fail "the apply unit did not refuse the linked backups/ by name: path unit $(probe hostile.backups.path), journal $(probe hostile.backups.journal)"
    [ "$(probe hostile.backups.victim)" = hosts-20260101T000000Z-1 ] || fail "root wrote or pruned through the linked backups/: $(probe hostile.backups.victim)"
    [ "$(probe hostile.backups.hosts)" = unchanged ] || fail "/etc/hosts was written though its backup was refused"
    note "apply.lock a link to /etc/nologin: $(probe hostile.lock.log); /etc/nologin $(probe hostile.lock.nologin)"
    [ -n "$(probe hostile.lock.log)" ] || fail "the apply unit did not refuse the linked apply.lock by name"
    [ "$(probe hostile.lock.nologin)" = absent ] || fail "root created /etc/nologin through the linked apply.lock"
  fi
  rm -f "$out"
}

in_namespace() {
  root=$1
  deb=$2
  version=$3
  trap cleanup_namespace EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM

  step "Mounting /proc, /dev, /dev/pts and /sys in the root (in a mount namespace of the test's own)"
  mount_root

  # apt in the root finds the mirror as this machine does (by DNS, or by a line of /etc/hosts).
  cp -L /etc/resolv.conf "$root/etc/resolv.conf"
  local mirror_host
  mirror_host=$(printf '%s\n' "$mirror" | sed -E 's#^[a-z]+://([^/:]+).*#\1#')
  getent hosts "$mirror_host" | head -1 >>"$root/etc/hosts" || true

  step "apt-get update in the root"
  in_root apt-get update -qq || fail "apt-get update in the root failed (is $mirror reachable?)"

  step "apt-get install -y $deb (apt resolves the Depends from the mirror)"
  in_root apt-get install -y --no-install-recommends "$deb" || fail "apt-get install of the package failed"
  in_root dpkg-query -W -f='${Status} ${Version}\n' sanehosts | grep -q "install ok installed" ||
    fail "sanehosts is not installed after apt-get install"

  step "sanehosts --version"
  local printed
  printed=$(in_root sanehosts --version) || fail "sanehosts --version failed"
  note "$printed"
  [ "$printed" = "$version" ] || fail "sanehosts --version printed \"$printed\", the package is $version"

  step "sanehosts catalog"
  local catalog
  catalog=$(in_root env SANEHOSTS_HOME=/tmp/cli-home sanehosts catalog) || fail "sanehosts catalog failed"
  note "$(printf '%s\n' "$catalog" | wc -l) lines, the first: $(printf '%s\n' "$catalog" | head -1)"
  [ "$(printf '%s\n' "$catalog" | wc -l)" -gt 5 ] || fail "sanehosts catalog printed almost nothing"

  step "sanehosts compile /usr/share/doc/sanehosts/examples/blocklist.hosts (hosts and dnsmasq)"
  local compiled
  compiled=$(in_root env SANEHOSTS_HOME=/tmp/cli-home sanehosts compile --quiet \
    /usr/share/doc/sanehosts/examples/blocklist.hosts) || fail "sanehosts compile failed"
  for name in ads.example.com metrics.tracker.example.com beacon.example.net telemetry.example.org; do
    printf '%s\n' "$compiled" | grep -qx "0.0.0.0 $name" || fail "compile's hosts output lacks 0.0.0.0 $name"
  done
  compiled=$(in_root env SANEHOSTS_HOME=/tmp/cli-home sanehosts compile --quiet --format dnsmasq \
    /usr/share/doc/sanehosts/examples/blocklist.hosts) || fail "sanehosts compile --format dnsmasq failed"
  printf '%s\n' "$compiled" | grep -qx "server=/ads.example.com/" || fail "compile's dnsmasq output is wrong"
  note "6 names, as hosts and as dnsmasq"

  step "The man page, completions, user, store and enabled units"
  in_root test -s /usr/share/man/man1/sanehosts.1.gz || fail "no man page"
  for file in /usr/share/bash-completion/completions/sanehosts /usr/share/zsh/vendor-completions/_sanehosts \
    /usr/share/fish/vendor_completions.d/sanehosts.fish; do
    in_root test -s "$file" || fail "no $file"
  done
  local account
  account=$(in_root getent passwd sanehosts) || fail "the user sanehosts was not created"
  note "user: $account"
  printf '%s\n' "$account" | grep -q ':/var/lib/sanehosts:/usr/sbin/nologin$' ||
    fail "the user sanehosts should have home /var/lib/sanehosts and shell /usr/sbin/nologin"
  in_root getent group sanehosts >/dev/null || fail "the group sanehosts was not created"
  local store
  store=$(in_root stat -c '%a %U:%G' /var/lib/sanehosts) || fail "/var/lib/sanehosts was not created"
  note "/var/lib/sanehosts: $store"
  [ "$store" = "750 sanehosts:sanehosts" ] || fail "/var/lib/sanehosts is $store, not 750 sanehosts:sanehosts"
  for link in multi-user.target.wants/sanehosts-serve.service multi-user.target.wants/sanehosts-apply.path \
    timers.target.wants/sanehosts-update.timer timers.target.wants/sanehosts-expire.timer; do
    [ -L "$root/etc/systemd/system/$link" ] || fail "postinst did not enable $link"
  done
  note "enabled: sanehosts-serve.service, sanehosts-apply.path, sanehosts-update.timer, sanehosts-expire.timer"

  step "systemd-analyze verify of the installed units (systemd installed into the root for it)"
  in_root apt-get install -y -qq --no-install-recommends systemd >/dev/null ||
    fail "apt-get install systemd in the root failed"
  local units=(sanehosts-serve.service sanehosts-apply.service sanehosts-apply.path sanehosts-update.service
    sanehosts-update.timer sanehosts-expire.service sanehosts-expire.timer)
  local verify
  verify=$(in_root systemd-analyze verify --man=no \
    "${units[@]/#//lib/systemd/system/}" 2>&1) || fail "systemd-analyze verify failed: $verify"
  [ -z "$verify" ] || fail "systemd-analyze verify complained: $verify"
  note "${#units[@]} units verified, no complaint"
  local score
  score=$(in_root systemd-analyze security --offline=true --no-pager /lib/systemd/system/sanehosts-serve.service 2>&1 |
    tail -1) || true
  note "systemd-analyze security: ${score#→ }"

  step "Starting the dashboard as sanehosts-serve.service does"
  local unit=$root/lib/systemd/system/sanehosts-serve.service
  local user group umask_value exec_start
  user=$(unit_values "$unit" User | tail -1)
  group=$(unit_values "$unit" Group | tail -1)
  umask_value=$(unit_values "$unit" UMask | tail -1)
  exec_start=$(unit_values "$unit" ExecStart | tail -1)
  [ -n "$user" ] && [ -n "$group" ] && [ -n "$exec_start" ] || fail "the unit lacks User=, Group= or ExecStart="
  # A free port, in /etc/default/sanehosts as an administrator would set it.
  local port
  for port in $(shuf -i 20000-60000 -n 50); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || break
  done
  sed -i "s/--port [0-9]*/--port $port/" "$root/etc/default/sanehosts"
  grep -q -- "--port $port" "$root/etc/default/sanehosts" || fail "could not set the port in /etc/default/sanehosts"
  # The environment: Environment= lines, then EnvironmentFile= (which overrides them), as systemd does.
  declare -A environment=()
  local line value word key
  while IFS= read -r line; do
    while IFS= read -r word; do
      [ -n "$word" ] && environment[${word%%=*}]=${word#*=}
    done < <(words "$line")
  done < <(unit_values "$unit" Environment)
  while IFS= read -r value; do
    local optional=false
    case "$value" in -*) optional=true; value=${value#-} ;; esac
    if [ ! -e "$root$value" ]; then
      $optional || fail "EnvironmentFile $value is missing"
      continue
    fi
    while IFS= read -r line; do
      case "$line" in "" | \#*) continue ;; esac
      word=$(words "$line")
      environment[${word%%=*}]=${word#*=}
    done <"$root$value"
  done < <(unit_values "$unit" EnvironmentFile)
  # ExecStart: $NAME becomes the variable's words, ${NAME} one word, as systemd expands them.
  local command=()
  while IFS= read -r word; do
    case "$word" in
      \$\{*\}) key=${word#\$\{}; key=${key%\}}; command+=("${environment[$key]:-}") ;;
      \$*)
        key=${word#\$}
        while IFS= read -r value; do command+=("$value"); done < <(words "${environment[$key]:-}")
        ;;
      *) command+=("$word") ;;
    esac
  done < <(words "$exec_start")
  local assignments=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8)
  for key in "${!environment[@]}"; do assignments+=("$key=${environment[$key]}"); done
  local privileges=(--reuid="$user" --regid="$group" --init-groups)
  grep -qx 'NoNewPrivileges=yes' "$unit" && privileges+=(--no-new-privs)
  grep -qx 'CapabilityBoundingSet=' "$unit" && privileges+=(--bounding-set=-all --inh-caps=-all)
  note "as $user:$group, umask ${umask_value:-0022}, ${privileges[*]:3}"
  note "environment: ${assignments[*]:2}"
  note "command: ${command[*]}"
  local log=$work/dashboard.log
  chroot "$root" /usr/bin/setpriv "${privileges[@]}" -- /usr/bin/env -i "${assignments[@]}" \
    /bin/sh -c 'umask "$0" && cd / && exec "$@"' "${umask_value:-0022}" "${command[@]}" >"$log" 2>&1 &
  dashboard=$!
  local waited=0
  until grep -q "http://127.0.0.1:$port/" "$log" 2>/dev/null; do
    kill -0 "$dashboard" 2>/dev/null || fail "the dashboard exited: $(cat "$log")"
    [ "$waited" -lt 300 ] || fail "the dashboard did not start in 30 s: $(cat "$log")"
    sleep 0.1
    waited=$((waited + 1))
  done
  note "$(head -1 "$log")"
  local uid
  uid=$(awk '/^Uid:/ {print $2}' "/proc/$dashboard/status")
  [ "$uid" = "$(in_root id -u "$user")" ] || fail "the dashboard runs as uid $uid, not $user"

  local response=$work/response status
  status=$(http_get "$port" /metrics "$response")
  if [ "$status" = 200 ]; then
    note "GET /metrics: 200 (the binary serves /metrics); $(grep -c '^sanehosts_' "$response" || true) sanehosts_ samples"
  else
    note "GET /metrics: ${status:-no answer}, so GET / instead (this binary has no /metrics yet)"
    status=$(http_get "$port" / "$response")
    [ "$status" = 200 ] || fail "GET / answered ${status:-nothing}: $(head -c 500 "$response")"
    grep -qi "sanehosts" "$response" || fail "GET / is not the dashboard: $(head -c 500 "$response")"
    note "GET /: 200, the dashboard's page"
  fi
  kill -TERM "$dashboard"
  local stopped=0
  wait "$dashboard" || stopped=$?
  dashboard=""
  note "stopped with SIGTERM (exit status $stopped)"
  local foreign
  foreign=$(find "$root/var/lib/sanehosts" ! -user "$(in_root id -u "$user")" -printf '%P ' 2>/dev/null)
  [ -z "$foreign" ] || fail "files in /var/lib/sanehosts not owned by $user: $foreign"
  note "the store: $(find "$root/var/lib/sanehosts" -mindepth 1 | wc -l) entries, all owned by $user"

  boot_with_nspawn "$port"

  step "apt-get remove sanehosts: only the store, the user and the conffile may stay"
  local files conffiles
  files=$(in_root dpkg-query -L sanehosts)
  conffiles=$(in_root dpkg-query -W -f='${Conffiles}\n' sanehosts | awk 'NF {print $1}')
  in_root apt-get remove -y sanehosts || fail "apt-get remove sanehosts failed"
  local path left=()
  while IFS= read -r path; do
    [ -n "$path" ] && [ "$path" != "/." ] || continue
    if printf '%s\n' "$conffiles" | grep -qx "$path"; then continue; fi
    # Every file and folder of the package's own has sanehosts in its path; the others (/usr/bin,
    # /lib/systemd/system, /lib itself: a symbolic link on a merged-/usr system) are shared and stay.
    [[ "$path" == *sanehosts* ]] || continue
    if [ -e "$root$path" ] || [ -L "$root$path" ]; then left+=("$path"); fi
  done <<<"$files"
  [ ${#left[@]} -eq 0 ] || fail "package files left after remove: ${left[*]}"
  [ -d "$root/var/lib/sanehosts" ] || fail "remove deleted /var/lib/sanehosts (only purge should)"
  in_root getent passwd sanehosts >/dev/null || fail "remove deleted the user (only purge should)"
  note "package files gone; kept: /var/lib/sanehosts, the user, $(printf '%s' "$conffiles" | tr '\n' ' ')"

  step "apt-get purge sanehosts: nothing may stay"
  in_root apt-get purge -y sanehosts || fail "apt-get purge sanehosts failed"
  [ ! -e "$root/var/lib/sanehosts" ] || fail "/var/lib/sanehosts is left after purge"
  ! in_root getent passwd sanehosts >/dev/null || fail "the user sanehosts is left after purge"
  ! in_root getent group sanehosts >/dev/null || fail "the group sanehosts is left after purge"
  if in_root dpkg-query -W -f='${Status}\n' sanehosts 2>/dev/null | grep -qv "not-installed"; then
    fail "dpkg still knows sanehosts after purge: $(in_root dpkg-query -W -f='${Status}' sanehosts)"
  fi
  left=()
  while IFS= read -r path; do left+=("$path"); done < <(
    find "$root" -xdev \( -path "$root/proc" -o -path "$root/sys" -o -path "$root/dev" -o -path "$root/tmp" \
      -o -path "$root/var/cache/apt" -o -path "$root/var/log" \) -prune -o -name '*sanehosts*' -printf '/%P\n'
  )
  [ ${#left[@]} -eq 0 ] || fail "left after purge: ${left[*]}"
  note "no file named sanehosts left, no user, no store"

  step "Again where systemd is installed: postinst makes the user with systemd-sysusers; purge removes it"
  in_root apt-get install -y -qq --no-install-recommends "$deb" >/dev/null || fail "the second install failed"
  account=$(in_root getent passwd sanehosts) || fail "systemd-sysusers did not create the user sanehosts"
  note "user: $account"
  printf '%s\n' "$account" | grep -q ':/var/lib/sanehosts:/usr/sbin/nologin$' ||
    fail "systemd-sysusers made sanehosts with another home or shell: $account"
  store=$(in_root stat -c '%a %U:%G' /var/lib/sanehosts) || fail "/var/lib/sanehosts was not created"
  [ "$store" = "750 sanehosts:sanehosts" ] || fail "/var/lib/sanehosts is $store, not 750 sanehosts:sanehosts"
  in_root apt-get purge -y -qq sanehosts >/dev/null || fail "the second purge failed"
  ! in_root getent passwd sanehosts >/dev/null || fail "the user sanehosts is left after the second purge"
  ! in_root getent group sanehosts >/dev/null || fail "the group sanehosts is left after the second purge"
  [ ! -e "$root/var/lib/sanehosts" ] || fail "/var/lib/sanehosts is left after the second purge"
  note "created by systemd-sysusers, removed by purge"
}

if [ "${1:-}" = "--in-namespace" ]; then
  shift
  work=$1
  mirror=$2
  in_namespace "$3" "$4" "$5"
  exit 0
fi

# MARK: Outside: the package, lintian, the cached root, then the namespace.

cd "$(dirname "$0")/.."
repo=$PWD
deb=""
binary=""
while [ $# -gt 0 ]; do
  case "$1" in
    --deb) deb=${2:?"--deb needs the path of a .deb"}; shift 2 ;;
    --deb=*) deb=${1#--deb=}; shift ;;
    --binary) binary=${2:?"--binary needs the path of a built sanehosts"}; shift 2 ;;
    --binary=*) binary=${1#--binary=}; shift ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test-package.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done

[ "$(id -u)" -eq 0 ] || fail "run as root: debootstrap, chroot and mounts need it"
for tool in debootstrap unshare chroot tar gzip flock; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing (apt-get install debootstrap util-linux tar gzip)"
done
mirror=${SANEHOSTS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${SANEHOSTS_DEBOOTSTRAP_CACHE:-/var/cache/sanehosts-tests}
arch=$(dpkg --print-architecture)
started=$(date +%s)
export SANEHOSTS_PACKAGE_TEST_STARTED=$started

work=$(mktemp -d /var/tmp/sanehosts-package-test.XXXXXX)
cleanup() {
  local status=$?
  # The mounts were in the namespace, gone with it; never delete through one that is somehow left.
  if grep -q " $work/" /proc/self/mounts; then
    echo "test-package.sh: mounts are left under $work; not deleting it" >&2
  else
    rm -rf "$work"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -z "$deb" ]; then
  step "Building the package (scripts/package-deb.sh${binary:+ --binary $binary})"
  deb=$(./scripts/package-deb.sh ${binary:+--binary "$binary"} --output "$work") || fail "scripts/package-deb.sh failed"
fi
[ -f "$deb" ] || fail "$deb is not a file"
version=$(dpkg-deb -f "$deb" Version)
note "$deb: $version, Depends: $(dpkg-deb -f "$deb" Depends)"

if command -v lintian >/dev/null 2>&1; then
  step "lintian $(basename "$deb")"
  lintian_status=0
  lintian_output=$(lintian --fail-on error,warning "$deb" 2>&1) || lintian_status=$?
  lintian_output=$(printf '%s\n' "$lintian_output" | grep -v -e '^running with root privileges' -e '^$' || true)
  [ "$lintian_status" -eq 0 ] || fail "lintian (exit status $lintian_status): $lintian_output"
  [ -z "$lintian_output" ] || printf '%s\n' "$lintian_output" | sed 's/^/    /'
  note "clean (overrides: $(grep -c '^sanehosts:' "$repo/packaging/debian/lintian-overrides"))"
else
  step "lintian is not installed: the package is not linted (apt-get install lintian)"
fi

tarball=$cache/debian-bookworm-minbase-$arch.tar.gz
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ ! -s "$tarball" ]; then
  step "debootstrap --variant=minbase bookworm from $mirror (cached afterwards in $tarball)"
  bootstrap_started=$(date +%s)
export SANEHOSTS_PACKAGE_TEST_STARTED=$started
  debootstrap --variant=minbase bookworm "$work/bootstrap" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    fail "debootstrap failed: $(tail -20 "$work/debootstrap.log")"
  chroot "$work/bootstrap" apt-get clean
  tar --numeric-owner -C "$work/bootstrap" -czf "$tarball.partial" .
  mv "$tarball.partial" "$tarball"
  rm -rf "$work/bootstrap"
  note "bootstrapped and cached in $(($(date +%s) - bootstrap_started)) s ($(du -h "$tarball" | cut -f1))"
else
  step "Using the cached Debian 12 root $tarball"
fi
flock -u 9

root=$work/root
mkdir "$root"
tar --numeric-owner -C "$root" -xzf "$tarball"
cp "$deb" "$root/tmp/"
inside_deb=/tmp/$(basename "$deb")

# In a process group of its own, so that an interrupt reaches apt, dpkg and the dashboard in the root too.
setsid unshare --mount --propagation private -- bash "$repo/scripts/test-package.sh" --in-namespace \
  "$work" "$mirror" "$root" "$inside_deb" "${version%-*}" </dev/null &
inner=$!
trap 'kill -TERM -- "-$inner" 2>/dev/null; wait "$inner"; exit 130' INT
trap 'kill -TERM -- "-$inner" 2>/dev/null; wait "$inner"; exit 143' TERM
inner_status=0
wait "$inner" || inner_status=$?
trap 'exit 130' INT
trap 'exit 143' TERM
[ "$inner_status" -eq 0 ] || exit "$inner_status"

printf '==> Passed in %d s\n' "$(($(date +%s) - started))"
