#!/usr/bin/env bash
# Installs `sanehosts` under a prefix: the binary (bin/), shell completions for bash, zsh and fish, and a
# man page with every command and subcommand (share/man/man1/sanehosts.1, from `sanehosts generate-manual`).
#
#   ./scripts/install.sh [--prefix DIR] [--binary PATH] [--uninstall]
#
# --prefix DIR   where to install (default /usr/local; a prefix you cannot write needs sudo)
# --binary PATH  install this already built binary instead of building a release one
# --uninstall    remove what an install put under the prefix, and the folders it made that are left empty
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=/usr/local
binary=""
uninstall=false
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=${2:?"--prefix needs a directory"}; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --binary) binary=${2:?"--binary needs the path of a built sanehosts"}; shift 2 ;;
    --binary=*) binary=${1#--binary=}; shift ;;
    --uninstall) uninstall=true; shift ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
done

files=(
  "$prefix/bin/sanehosts"
  "$prefix/share/bash-completion/completions/sanehosts"
  "$prefix/share/zsh/site-functions/_sanehosts"
  "$prefix/share/fish/vendor_completions.d/sanehosts.fish"
  "$prefix/share/man/man1/sanehosts.1"
)

# The folders an install needs, deepest first (the order uninstalling removes them in). Those it had to
# make are recorded in share/sanehosts/installed-folders, so that uninstalling removes only folders the
# install made, once they are empty: never one that was there before (/usr/local/bin), nor one that still
# holds something else, nor the prefix itself.
folders=(
  share/bash-completion/completions share/bash-completion
  share/zsh/site-functions share/zsh
  share/fish/vendor_completions.d share/fish
  share/man/man1 share/man
  share/sanehosts share
  bin
)
record="$prefix/share/sanehosts/installed-folders"

if $uninstall; then
  for file in "${files[@]}"; do
    if [ -e "$file" ]; then rm -f "$file" && echo "removed $file"; fi
  done
  if [ -f "$record" ]; then
    made=$(cat "$record")
    rm -f "$record"
  else
    # Installed before the record existed: only the folders no system has on its own.
    made=$(printf '%s\n' share/bash-completion/completions share/bash-completion share/zsh/site-functions share/zsh \
      share/fish/vendor_completions.d share/fish share/man/man1)
  fi
  made=$(printf '%s\n%s\n' "$made" share/sanehosts)
  for folder in "${folders[@]}"; do
    printf '%s\n' "$made" | grep -qxF "$folder" || continue
    if [ -d "$prefix/$folder" ] && [ ! -L "$prefix/$folder" ]; then
      rmdir --ignore-fail-on-non-empty "$prefix/$folder"
      [ -d "$prefix/$folder" ] || echo "removed $prefix/$folder/"
    fi
  done
  exit 0
fi

if [ -z "$binary" ]; then
  ./scripts/build-release.sh
  binary=.build/release/sanehosts
fi
if [ ! -x "$binary" ]; then
  echo "install.sh: $binary is not an executable sanehosts" >&2
  exit 1
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$binary" --generate-completion-script bash >"$scratch/bash"
"$binary" --generate-completion-script zsh >"$scratch/zsh"
"$binary" --generate-completion-script fish >"$scratch/fish"

# The man page: the overview, then every command and subcommand's whole help.
"$binary" generate-manual >"$scratch/man"

made=()
for folder in "${folders[@]}"; do
  [ -d "$prefix/$folder" ] || made+=("$folder")
done
for folder in "${folders[@]}"; do install -d "$prefix/$folder"; done
# Added to an earlier install's record: a reinstall finds those folders there already.
{
  if [ -f "$record" ]; then cat "$record"; fi
  if [ ${#made[@]} -gt 0 ]; then printf '%s\n' "${made[@]}"; fi
} | awk 'NF && !seen[$0]++' >"$scratch/folders"
install -m 0644 "$scratch/folders" "$record"
# Stripped: symbol tables and debug sections are two thirds of the release file (155 MB → 53 MB).
install -s -m 0755 "$binary" "$prefix/bin/sanehosts"
install -m 0644 "$scratch/bash" "$prefix/share/bash-completion/completions/sanehosts"
install -m 0644 "$scratch/zsh" "$prefix/share/zsh/site-functions/_sanehosts"
install -m 0644 "$scratch/fish" "$prefix/share/fish/vendor_completions.d/sanehosts.fish"
install -m 0644 "$scratch/man" "$prefix/share/man/man1/sanehosts.1"
for file in "${files[@]}"; do echo "installed $file"; done
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: $prefix/bin is not on PATH; add it, or run $prefix/bin/sanehosts." >&2 ;;
esac
