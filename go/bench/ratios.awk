# Reads `go test -bench -count N` output of sidebyside_test.go and prints a
# table: per MAC and size the median ns/op and MB/s over the N samples of
# its own benchmark, and for fastmac's UMACs the speed-up over the peer
# package from BenchmarkSpeedupOverPeer (timed interleaved with it: the
# median over samples of the per-sample median x-speedup).
function median(list,    n, v, i, j, t) {
	n = split(list, v, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j-1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
/^BenchmarkSpeedupOverPeer\// {
	split($1, parts, "/")
	size = parts[3]; sub(/-[0-9]+$/, "", size)
	for (i = 4; i < NF; i++) {
		if ($(i+1) == "x-speedup") speedup["Fastmac" parts[2], size] = speedup["Fastmac" parts[2], size] " " $i
		if ($(i+1) == "fastmac-ns/msg") inter["Fastmac" parts[2], size] = inter["Fastmac" parts[2], size] " " $i
		if ($(i+1) == "peer-ns/msg") inter["Peer" parts[2], size] = inter["Peer" parts[2], size] " " $i
	}
	next
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
	printf "%-16s %6s %10s %9s %14s %9s\n", "MAC", "bytes", "ns/op", "MB/s", "interleaved ns", "vs peer"
	split("FastmacUMAC64 PeerUMAC64 FastmacUMAC128 PeerUMAC128 HMACSHA256 Poly1305", names, " ")
	for (s = 1; s <= nsizes; s++) {
		size = order[s]
		for (n = 1; n <= 6; n++) {
			name = names[n]
			if (!((name, size) in ns)) continue
			ratio = ((name, size) in speedup) ? sprintf("%.2fx", median(speedup[name, size])) : ""
			il = ((name, size) in inter) ? sprintf("%.1f", median(inter[name, size])) : ""
			printf "%-16s %6s %10.1f %9.1f %14s %9s\n", name, size, median(ns[name, size]), median(mbs[name, size]), il, ratio
		}
	}
}
