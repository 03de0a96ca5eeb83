#!/bin/bash
# Adds deb-src entries for the Debian suites apt is configured with (deb822
# .sources files and one-line .list entries alike), so that `apt-get source`
# works. Idempotent: does nothing when a deb-src entry already exists.
set -euo pipefail
out=/etc/apt/sources.list.d/fastmac-deb-src.sources
lists=(/etc/apt/sources.list /etc/apt/sources.list.d/*.list)
sources=(/etc/apt/sources.list.d/*.sources)

if grep -qsE '^(Types:.*deb-src|deb-src )' "${lists[@]}" "${sources[@]}"; then
	exit 0
fi
{
	# deb822 stanzas of type deb, pointing at a Debian archive: the same
	# stanza with Types: deb-src.
	for f in "${sources[@]}"; do
		[ -f "$f" ] || continue
		awk -v RS= -v ORS='\n\n' '/(^|\n)Types:([^\n]* )?deb( |\n|$)/ && /debian/ {
			sub(/Types:[^\n]*/, "Types: deb-src"); print }' "$f"
	done
	# One-line entries: `deb [opts] uri suite comp...` as a deb822 stanza.
	for f in "${lists[@]}"; do
		[ -f "$f" ] || continue
		sed -n 's/^deb \(\[[^]]*\] \)\?\([^ ]*debian[^ ]*\) \([^ ]*\) \(.*\)$/Types: deb-src\nURIs: \2\nSuites: \3\nComponents: \4\n/p' "$f"
	done
} > "$out.tmp"
if [ ! -s "$out.tmp" ]; then
	rm -f "$out.tmp"
	echo "deb-src.sh: no Debian archive in the apt configuration" >&2
	exit 1
fi
mv "$out.tmp" "$out"
echo "deb-src.sh: wrote $out"
