# Reads `go test -bench -count N` output of sidebyside_test.go and prints a
# table: the median ns/op and MB/s per MAC and size over the N samples, and
# each fastmac UMAC's speed-up over the peer package (the peer's median
# ns/op divided by fastmac's).
function median(list,    n, v, i, j, t) {
	n = split(list, v, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j-1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
/^Benchmark/ {
	split($1, parts, "/")
	name = substr(parts[1], 10)
	size = parts[2]; sub(/-[0-9]+$/, "", size)
	ns[name, size] = ns[name, size] " " $3
	for (i = 4; i < NF; i++) if ($(i+1) == "MB/s") mbs[name, size] = mbs[name, size] " " $i
	if (!(size in seen)) { seen[size] = 1; order[++nsizes] = size }
}
END {
	printf "%-16s %7s %12s %10s %9s\n", "MAC", "bytes", "ns/op", "MB/s", "vs peer"
	split("FastmacUMAC64 PeerUMAC64 FastmacUMAC128 PeerUMAC128 HMACSHA256 Poly1305", names, " ")
	for (s = 1; s <= nsizes; s++) {
		size = order[s]
		for (n = 1; n <= 6; n++) {
			name = names[n]
			if (!((name, size) in ns)) continue
			ratio = ""
			if (name ~ /^Fastmac/) {
				p = name; sub(/Fastmac/, "Peer", p)
				if ((p, size) in ns) ratio = sprintf("%.2fx", median(ns[p, size]) / median(ns[name, size]))
			}
			printf "%-16s %7s %12.1f %10.1f %9s\n", name, size, median(ns[name, size]), median(mbs[name, size]), ratio
		}
	}
}
