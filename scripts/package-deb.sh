#!/usr/bin/env bash
# Builds the Debian package sanehosts_VERSION-REVISION_ARCH.deb: the stripped binary, the man page,
# completions for bash, zsh and fish, the systemd units (dashboard, apply path, update and expire timers),
# /etc/default/sanehosts, the system user (sysusers.d), the maintainer scripts and the copyright file, all
# from packaging/debian/. Depends are computed by dpkg-shlibdeps from what the binary links.
#
#   ./scripts/package-deb.sh [--binary PATH] [--output DIR] [--version V] [--revision R]
#
# --binary PATH   package this already built sanehosts instead of building a release one
# --output DIR    where the .deb goes (default: the current directory)
# --version V     the upstream version (default: what `sanehosts --version` prints)
# --revision R    the Debian revision (default 1): the package's version is V-R
#
# Needs dpkg-dev (dpkg-shlibdeps) and binutils (strip). The package's file name is printed last, on
# standard output; everything else goes to standard error.
set -euo pipefail
invoked_from=$PWD
cd "$(dirname "$0")/.."
repo=$PWD

binary=""
output=""
version=""
revision=1
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary=${2:?"--binary needs the path of a built sanehosts"}; shift 2 ;;
    --binary=*) binary=${1#--binary=}; shift ;;
    --output) output=${2:?"--output needs a directory"}; shift 2 ;;
    --output=*) output=${1#--output=}; shift ;;
    --version) version=${2:?"--version needs a version"}; shift 2 ;;
    --version=*) version=${1#--version=}; shift ;;
    --revision) revision=${2:?"--revision needs a number"}; shift 2 ;;
    --revision=*) revision=${1#--revision=}; shift ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "package-deb.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done
case "$output" in
  "") output=$invoked_from ;;
  /*) ;;
  *) output=$invoked_from/$output ;;
esac
case "$binary" in
  ""|/*) ;;
  *) binary=$invoked_from/$binary ;;
esac

for tool in dpkg-deb dpkg-shlibdeps strip gzip; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "package-deb.sh: $tool is missing: apt-get install dpkg-dev binutils gzip" >&2
    exit 1
  fi
done

if [ -z "$binary" ]; then
  ./scripts/build-release.sh
  binary=$repo/.build/release/sanehosts
fi
if [ ! -x "$binary" ]; then
  echo "package-deb.sh: $binary is not an executable sanehosts" >&2
  exit 1
fi

[ -n "$version" ] || version=$("$binary" --version)
if ! printf '%s' "$version" | grep -Eq '^[0-9][A-Za-z0-9.+~]*$'; then
  echo "package-deb.sh: \"$version\" is not an upstream version Debian accepts" >&2
  exit 64
fi
if ! printf '%s' "$revision" | grep -Eq '^[A-Za-z0-9.+~]+$'; then
  echo "package-deb.sh: \"$revision\" is not a Debian revision" >&2
  exit 64
fi
full_version=$version-$revision
arch=$(dpkg --print-architecture)
deb=$output/sanehosts_${full_version}_$arch.deb

# One timestamp for every file, the changelog and the man page: the last commit's, so that the same
# commit and binary give the same package.
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git -C "$repo" log -1 --format=%ct 2>/dev/null || date +%s)
fi
export SOURCE_DATE_EPOCH
maintainer_name=${DEBFULLNAME:-$(git -C "$repo" config user.name 2>/dev/null || echo "SaneHosts maintainers")}
maintainer_email=${DEBEMAIL:-$(git -C "$repo" config user.email 2>/dev/null || echo "root@localhost")}
maintainer="$maintainer_name <$maintainer_email>"
commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# The tree laid out as debhelper does (debian/PACKAGE/), where dpkg-shlibdeps expects it.
root=$scratch/debian/sanehosts
source=$repo/packaging/debian
echo "Packaging $binary as sanehosts $full_version ($arch)" >&2

# The binary, stripped as dh_strip strips executables (symbols and debug sections are two thirds of the
# release file).
install -d -m 0755 "$root/usr/bin"
install -m 0755 "$binary" "$root/usr/bin/sanehosts"
strip --remove-section=.comment --remove-section=.note "$root/usr/bin/sanehosts"
"$root/usr/bin/sanehosts" --version >/dev/null

# The man page and completions, from the program itself.
install -d -m 0755 "$root/usr/share/man/man1" "$root/usr/share/bash-completion/completions" \
  "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d"
"$binary" generate-manual --date "$(date -u -d "@$SOURCE_DATE_EPOCH" +%F)" | gzip -9n >"$root/usr/share/man/man1/sanehosts.1.gz"
# Sourced, not run: without the #! line the generated script starts with (lintian's
# bash-completion-with-hashbang).
"$binary" --generate-completion-script bash | sed '1{/^#!/d}' >"$root/usr/share/bash-completion/completions/sanehosts"
"$binary" --generate-completion-script zsh >"$root/usr/share/zsh/vendor-completions/_sanehosts"
"$binary" --generate-completion-script fish >"$root/usr/share/fish/vendor_completions.d/sanehosts.fish"

# Documentation: the copyright file, the Debian changelog and a small list to try (and test) compile on.
doc=$root/usr/share/doc/sanehosts
install -d -m 0755 "$doc/examples"
install -m 0644 "$source/copyright" "$doc/copyright"
install -m 0644 "$source/examples/blocklist.hosts" "$doc/examples/blocklist.hosts"
{
  echo "sanehosts ($full_version) unstable; urgency=medium"
  echo
  echo "  * Built by scripts/package-deb.sh from SaneHosts commit $commit."
  echo
  echo " -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n >"$doc/changelog.Debian.gz"

# systemd: the units, the system user, the dashboard's options.
install -d -m 0755 "$root/lib/systemd/system" "$root/usr/lib/sysusers.d" "$root/etc/default" \
  "$root/usr/share/lintian/overrides"
for unit in sanehosts-serve.service sanehosts-apply.service sanehosts-apply.path sanehosts-update.service \
  sanehosts-update.timer sanehosts-expire.service sanehosts-expire.timer; do
  install -m 0644 "$source/$unit" "$root/lib/systemd/system/$unit"
done
install -m 0644 "$source/sysusers.conf" "$root/usr/lib/sysusers.d/sanehosts.conf"
install -m 0644 "$source/default" "$root/etc/default/sanehosts"
install -m 0644 "$source/lintian-overrides" "$root/usr/share/lintian/overrides/sanehosts"

# Depends: the shared libraries the binary links, as dpkg-shlibdeps maps them to packages, then what the
# maintainer scripts run (adduser, where systemd-sysusers is not installed).
install -d -m 0755 "$root/DEBIAN"
printf 'Source: sanehosts\n\nPackage: sanehosts\nArchitecture: any\n' >"$scratch/debian/control"
shlibs=$(cd "$scratch" && dpkg-shlibdeps -O debian/sanehosts/usr/bin/sanehosts 2>"$scratch/shlibdeps.log") || {
  cat "$scratch/shlibdeps.log" >&2
  exit 1
}
grep -v '^$' "$scratch/shlibdeps.log" >&2 || true
depends=${shlibs#shlibs:Depends=}
depends="$depends, adduser"

# The control area.
for script in postinst prerm postrm; do install -m 0755 "$source/$script" "$root/DEBIAN/$script"; done
install -m 0644 "$source/conffiles" "$root/DEBIAN/conffiles"
find "$root" -path "$root/DEBIAN" -prune -o -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
installed_size=$(du -s -k --exclude=DEBIAN "$root" | cut -f1)
sed -e "s|@VERSION@|$full_version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" \
  -e "s|@INSTALLED_SIZE@|$installed_size|" -e "s|@DEPENDS@|$depends|" "$source/control" >"$root/DEBIAN/control"
(cd "$root" && find . \( -path ./DEBIAN -o -path ./etc \) -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) \
  >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p "$output"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >&2
echo "Depends: $depends" >&2
echo "$deb"
