package umac

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"
)

// vectorRow is one message of testdata/rfc4418.txt with its tags for
// 4-, 8-, 12- and 16-byte tags.
type vectorRow struct {
	msg  []byte
	tags [4][]byte
}

// rfc4418Vectors reads the RFC 4418 vectors (with the 'a' * 2^25 erratum
// and Nettle's UMAC-128 column): "key", "nonce", then rows of pattern ("-"
// is empty), repeat count and the four tags in hex. testdata/rfc4418.txt is
// the repository's tests/vectors/rfc4418.txt, copied so that the module
// tests on its own; `make test-go` checks that the two are the same.
func rfc4418Vectors(t testing.TB) (key, nonce []byte, rows []vectorRow) {
	t.Helper()
	f, err := os.Open("testdata/rfc4418.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		switch {
		case fields[0] == "key" && len(fields) == 2:
			key = []byte(fields[1])
		case fields[0] == "nonce" && len(fields) == 2:
			nonce = []byte(fields[1])
		case len(fields) == 6:
			pattern := fields[0]
			if pattern == "-" {
				pattern = ""
			}
			n, err := strconv.Atoi(fields[1])
			if err != nil {
				t.Fatalf("bad repeat count %q", fields[1])
			}
			row := vectorRow{msg: bytes.Repeat([]byte(pattern), n)}
			for i := range row.tags {
				if row.tags[i], err = hex.DecodeString(fields[2+i]); err != nil || len(row.tags[i]) != 4*(i+1) {
					t.Fatalf("bad tag %q", fields[2+i])
				}
			}
			rows = append(rows, row)
		default:
			t.Fatalf("unreadable line %q", sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(key) != KeySize || len(nonce) == 0 || len(rows) != 8 {
		t.Fatalf("vector file: key %q nonce %q and %d rows, want 8", key, nonce, len(rows))
	}
	return key, nonce, rows
}

func TestRFC4418Vectors(t *testing.T) {
	key, nonce, rows := rfc4418Vectors(t)
	for col, tagSize := range []int{4, 8, 12, 16} {
		u, err := New(key, tagSize)
		if err != nil {
			t.Fatal(err)
		}
		stream := u.NewStream()
		for _, row := range rows {
			want := row.tags[col]
			got, err := u.MAC(nil, nonce, row.msg)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("UMAC-%d of %d bytes: got %x (%v), want %x", 8*tagSize, len(row.msg), got, err, want)
			}
			if !u.Verify(nonce, row.msg, want) {
				t.Fatalf("UMAC-%d of %d bytes: Verify refused the right tag", 8*tagSize, len(row.msg))
			}
			// Streamed in uneven pieces, the tag is the same.
			for rest := row.msg; len(rest) > 0; {
				n := min(len(rest), 1007)
				stream.Write(rest[:n])
				rest = rest[n:]
			}
			if got, _ := stream.Sum(nil, nonce); !bytes.Equal(got, want) {
				t.Fatalf("UMAC-%d of %d bytes streamed: got %x, want %x", 8*tagSize, len(row.msg), got, want)
			}
			// Every flipped bit of the tag is refused (rows below 1 MiB:
			// each check re-hashes the message).
			if len(row.msg) >= 1<<20 {
				continue
			}
			for bit := 0; bit < 8*tagSize; bit++ {
				bad := bytes.Clone(want)
				bad[bit/8] ^= 1 << (bit % 8)
				if u.Verify(nonce, row.msg, bad) {
					t.Fatalf("UMAC-%d of %d bytes: tag with bit %d flipped accepted", 8*tagSize, len(row.msg), bit)
				}
			}
		}
	}
}
