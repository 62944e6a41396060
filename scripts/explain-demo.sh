#!/bin/bash
set -u
# The outputs in docs/explaining.md ("A session on real lists"): eight real lists of
# ../shared/data/blocklists as file sources (one a local "mirror" that then loses most of its lines), in a
# throwaway data directory.
DEMO="${DEMO:-$(mktemp -d)}"
S="${SANEHOSTS:-$(cd "$(dirname "$0")/.." && pwd)/.build/release/sanehosts}"
SHARED="${SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}"
# The demo reads the real lists beside the repository: without them it says so and stops, rather than
# carry on through a dozen failing commands.
if [ ! -d "$SHARED/data/blocklists" ]; then
  echo "explain-demo.sh needs the real lists in $SHARED/data/blocklists (the shared folder beside the repository); set SHARED=PATH to where they are." >&2
  exit 1
fi
if [ ! -x "$S" ]; then
  echo "explain-demo.sh runs $S: build it first (swift build -c release --product sanehosts), or set SANEHOSTS=PATH." >&2
  exit 1
fi
export SANEHOSTS_HOME=$DEMO/data
mkdir -p "$DEMO"
cd $DEMO
cp $SHARED/data/blocklists/easylist.hosts.txt $DEMO/easylist-mirror.txt
for f in stevenblack.domains.txt adguarddns.hosts.txt someonewhocares.hosts.txt anudeep-adservers.hosts.txt hagezi-light.wildcard.txt ubo-easyprivacy.txt ultimatehosts.adblock.txt; do
  $S sources add $SHARED/data/blocklists/$f >/dev/null
done
$S sources add $DEMO/easylist-mirror.txt --name easylist-mirror > /dev/null
$S allow add =ads.google.com > /dev/null
$S deny add tracker.example.org > /dev/null
$S update -q
echo '$ sanehosts why doubleclick.net ads.google.com metrics.foo.doubleclick.net bücher.de bad_name!'
$S why doubleclick.net ads.google.com metrics.foo.doubleclick.net bücher.de 'bad_name!'; echo "(exit $?)"
echo
echo '$ sanehosts sources overlap'
$S sources overlap
echo
# A mirror that lost most of its lines overnight.
head -n 30000 $SHARED/data/blocklists/easylist.hosts.txt > $DEMO/easylist-mirror.txt
echo '$ sanehosts update'
$S update 2>&1 | grep -E "^(Profile|!)"; echo "(exit ${PIPESTATUS[0]})"
echo
echo '$ sanehosts sources diff easylist-mirror --held --limit 3'
$S sources diff easylist-mirror --held --limit 3
echo
echo '$ sanehosts sources accept easylist-mirror'
$S sources accept easylist-mirror
echo
echo '$ sanehosts status'
$S status
