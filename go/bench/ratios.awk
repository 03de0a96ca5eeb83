# Reads `go test -bench -count N` output of sidebyside_test.go and prints
# two tables. The first is BenchmarkInterleaved's: per MAC and size, the
# median over the N samples of each per-sample median (ns per message of
# fastmac's MAC, of fastmac's SSHHash through hash.Hash (Reset, Write of
# the sequence number, Write of the message, Sum) and through SumPacket as
# the patched golang.org/x/crypto/ssh calls it, with the pieces cut from
# the message and with the pieces where x/crypto keeps them ("apart"), and
# of the peer package; the peer's time over each of fastmac's; the SSH
# paths' over MAC's). The second is the other MACs' own ns/op.
function median(list,    n, v, i, j, t) {
	n = split(list, v, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j-1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
/^BenchmarkInterleaved\// {
	split($1, parts, "/")
	size = parts[3]; sub(/-[0-9]+$/, "", size)
	row = parts[2] SUBSEP size
	if (!(row in seen)) { seen[row] = 1; rows[++nrows] = row }
	samples[row]++
	for (i = 4; i < NF; i++) metric[row, $(i+1)] = metric[row, $(i+1)] " " $i
	next
}
/^Benchmark/ {
	split($1, parts, "/")
	name = substr(parts[1], 10)
	size = parts[2]; sub(/-[0-9]+$/, "", size)
	if (!((name, size) in ns)) other[++nother] = name SUBSEP size
	ns[name, size] = ns[name, size] " " $3
}
END {
	printf "%-8s %6s | %8s %7s | %9s %7s %6s | %9s %7s %6s | %9s %7s %6s | %8s\n", "MAC", "bytes", "MAC ns", "vs peer",
		"hash.Hash", "vs peer", "/MAC", "SumPacket", "vs peer", "/MAC", "apart", "vs peer", "/MAC", "peer ns"
	for (r = 1; r <= nrows; r++) {
		row = rows[r]; split(row, key, SUBSEP)
		printf "%-8s %6s | %8.1f %6.2fx | %9.1f %6.2fx %5.2fx | %9.1f %6.2fx %5.2fx | %9.1f %6.2fx %5.2fx | %8.1f\n", key[1], key[2],
			median(metric[row, "mac-ns"]), median(metric[row, "mac-x"]),
			median(metric[row, "ssh-ns"]), median(metric[row, "ssh-x"]), median(metric[row, "ssh/mac"]),
			median(metric[row, "pkt-ns"]), median(metric[row, "pkt-x"]), median(metric[row, "pkt/mac"]),
			median(metric[row, "apart-ns"]), median(metric[row, "apart-x"]), median(metric[row, "apart/mac"]),
			median(metric[row, "peer-ns"])
	}
	if (nrows) printf "(medians of %d samples, each the median of its interleaved rounds)\n", samples[rows[1]]
	for (o = 1; o <= nother; o++) {
		split(other[o], key, SUBSEP)
		printf "%-12s %6s %10.1f ns/op\n", key[1], key[2], median(ns[key[1], key[2]])
	}
}
