# Reads `go test -bench` output of sidebyside_test.go and prints a table:
# ns/op and MB/s per MAC and size, and each UMAC's speed-up over the peer
# package (peer ns/op divided by fastmac ns/op).
/^Benchmark/ {
	split($1, parts, "/")
	name = substr(parts[1], 10)
	size = parts[2]; sub(/-[0-9]+$/, "", size)
	ns[name, size] = $3
	for (i = 4; i <= NF; i++) if ($(i+1) == "MB/s") mbs[name, size] = $i
	if (!(size in seen)) { seen[size] = 1; order[++nsizes] = size }
}
END {
	printf "%-18s %7s %12s %10s %12s\n", "MAC", "bytes", "ns/op", "MB/s", "vs peer"
	split("FastmacUMAC64 PeerUMAC64 FastmacUMAC128 PeerUMAC128 HMACSHA256 Poly1305", names, " ")
	for (s = 1; s <= nsizes; s++) {
		size = order[s]
		for (n = 1; n <= 6; n++) {
			name = names[n]
			if (!((name, size) in ns)) continue
			ratio = ""
			if (name ~ /^Fastmac/) {
				p = name; sub(/Fastmac/, "Peer", p)
				if ((p, size) in ns) ratio = sprintf("%.2fx", ns[p, size] / ns[name, size])
			}
			printf "%-18s %7s %12s %10s %12s\n", name, size, ns[name, size], mbs[name, size], ratio
		}
	}
}
