#!/usr/bin/env bash
# The russh loopback benchmark (make bench-russh; docs/russh.md section 5).
#
#   bench.sh STOCK_BINARY PATCHED_BINARY OUT_DIR
#
# Both binaries are src/bin/russh-bench.rs, built against stock russh and
# against russh with russh-umac.patch. Four cases, aes128-ctr each:
#   stock   hmac-sha2-256-etm@openssh.com
#   patched hmac-sha2-256-etm@openssh.com   (keyed once per key exchange)
#   patched umac-64-etm@openssh.com
#   patched umac-128-etm@openssh.com
# ROUNDS rounds (default 7), each running the four cases one after the
# other (interleaved, so that a change in the machine's load hits all four
# alike), each round starting at the next case; the table gives each case's
# median. Then one profile per case
# (perf record -e cpu-clock with DWARF call chains): a sample is the MAC's
# when its call chain passes through russh's Mac::compute or Mac::verify
# (every packet's tag, computed by the sender and checked by the receiver,
# both in this process), or its leaf is in fastmac, sha2 or hmac.
#
# Environment: ROUNDS (7), MIB per transfer (256), PROFILE_MIB (512),
# PACKET_BYTES (32768: SSH's usual channel packet; smaller packets show the
# per-packet costs, such as stock russh keying its HMAC for every packet).
set -euo pipefail

if [ $# -ne 3 ]; then
	echo "usage: $0 STOCK_BINARY PATCHED_BINARY OUT_DIR" >&2
	exit 2
fi
stock=$1
patched=$2
out=$3
rounds=${ROUNDS:-7}
mib=${MIB:-256}
profile_mib=${PROFILE_MIB:-512}
packet_bytes=${PACKET_BYTES:-32768}

cases=(
	"stock hmac-sha2-256-etm@openssh.com"
	"patched hmac-sha2-256-etm@openssh.com"
	"patched umac-64-etm@openssh.com"
	"patched umac-128-etm@openssh.com"
)

binary_of() {
	if [ "$1" = stock ]; then echo "$stock"; else echo "$patched"; fi
}

mkdir -p "$out"
runs=$out/runs.txt
: >"$runs"
cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)
echo "CPU: $cpu ($(nproc) CPUs online); load average at start: $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo "$rounds interleaved rounds of $mib MiB per case in $packet_bytes-byte packets"

for round in $(seq 1 "$rounds"); do
	# Each round starts at another case, so that none always runs first.
	for i in $(seq 0 $((${#cases[@]} - 1))); do
		case=${cases[$(((round - 1 + i) % ${#cases[@]}))]}
		read -r russh mac <<<"$case"
		line=$("$(binary_of "$russh")" --mac "$mac" --mib "$mib" --packet-bytes "$packet_bytes")
		echo "round $round $russh $line" | tee -a "$runs"
	done
done

# The median of a column of numbers on stdin.
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# field NAME: the value of NAME=... on each run line of a case.
field() {
	grep -o "$1=[^ ]*" | cut -d = -f 2
}

# The MAC's share of a profile's samples, and the total sample count.
mac_share() {
	perf script -i "$1" --no-inline -F ip,sym 2>/dev/null | awk '
		function flush() {
			if (!in_sample) return
			total++
			if (is_mac) mac++
			in_sample = 0; is_mac = 0; leaf = 1
		}
		/^$/ { flush(); next }
		{
			in_sample = 1
			sym = $0; sub(/^[ \t]*[0-9a-f]+ /, "", sym)
			if (sym ~ /as russh::mac::Mac>::(compute|verify)/) is_mac = 1
			if (leaf && sym ~ /^<?(fastmac|sha2|hmac)::/) is_mac = 1
			leaf = 0
		}
		BEGIN { leaf = 1 }
		END { flush(); if (total == 0) exit 1; printf "%.1f %d\n", 100 * mac / total, total }'
}

table=$out/table.txt
{
	echo "| russh | MAC | MB/s (median) | CPU ms per MiB | CPU µs per packet | MAC share of CPU | MAC µs per packet |"
	echo "|---|---|---:|---:|---:|---:|---:|"
} >"$table"
for case in "${cases[@]}"; do
	read -r russh mac <<<"$case"
	lines=$(grep " $russh mac=$mac " "$runs")
	mbps=$(field mb_per_s <<<"$lines" | median)
	cpu_s=$(field cpu_seconds <<<"$lines" | median)
	perf_data=$out/perf-$russh-${mac%%@*}.data
	perf record -q -e cpu-clock -F 2999 --call-graph dwarf,16384 -o "$perf_data" -- \
		"$(binary_of "$russh")" --mac "$mac" --mib "$profile_mib" \
		--packet-bytes "$packet_bytes" >/dev/null
	profile=$(mac_share "$perf_data")
	read -r share samples <<<"$profile"
	awk -v russh="$russh" -v mac="$mac" -v mbps="$mbps" -v cpu="$cpu_s" -v mib="$mib" \
		-v packet="$packet_bytes" -v share="$share" -v samples="$samples" 'BEGIN {
		per_packet = cpu * 1e6 / (mib * 1048576 / packet)
		printf "| %s | `%s` | %.0f | %.2f | %.1f | %.1f%% (%d samples) | %.1f |\n",
			russh, mac, mbps, cpu * 1000 / mib, per_packet, share, samples, per_packet * share / 100
	}' >>"$table"
done

# CPU-time ratios of two cases within each round, then their median: the
# load of the moment weighs on both runs of a pair alike.
round_ratios() {
	awk -v a="$1" -v b="$2" '{
		split($4, m, "="); case = $3 " " m[2]
		for (i = 5; i <= NF; i++) if ($i ~ /^cpu_seconds=/) { split($i, c, "="); cpu[case, $2] = c[2] }
		rounds[$2] = 1
	} END { for (r in rounds) if (cpu[b, r] > 0) print cpu[a, r] / cpu[b, r] }' "$runs" | median
}
ratios=$out/ratios.txt
{
	echo "CPU time per transfer, median of the $rounds per-round ratios:"
	for pair in \
		"stock hmac-sha2-256-etm@openssh.com|patched hmac-sha2-256-etm@openssh.com" \
		"patched hmac-sha2-256-etm@openssh.com|patched umac-64-etm@openssh.com" \
		"patched hmac-sha2-256-etm@openssh.com|patched umac-128-etm@openssh.com" \
		"stock hmac-sha2-256-etm@openssh.com|patched umac-64-etm@openssh.com"; do
		printf '  %s / %s: %.3f\n' "${pair%%|*}" "${pair##*|}" "$(round_ratios "${pair%%|*}" "${pair##*|}")"
	done
} >"$ratios"
echo "load average at end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo
cat "$table"
echo
cat "$ratios"
