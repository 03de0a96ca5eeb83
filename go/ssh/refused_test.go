//go:build umac_flip_tag

package ssh

import (
	"strings"
	"testing"
	"time"
)

// The negative control, built with the tag umac_flip_tag: the patched
// package flips one bit of every tag it sends (and checks incoming tags
// correctly), so OpenSSH, on either side, must refuse the connection.

func TestOpenSSHServerRefusesAFlippedTag(t *testing.T) {
	k := makeKeys(t)
	for _, mac := range umacNames {
		s := startSshd(t, k, mac)
		_, err := goClientCat(k, s.Port, mac, []byte("hello"))
		if err == nil {
			t.Fatalf("%s: the session succeeded with flipped tags", mac)
		}
		if !s.waitLog(t, "Corrupted MAC on input", 10*time.Second) {
			t.Fatalf("%s: sshd did not report a corrupted MAC (client error %v):\n%s", mac, err, s.logText())
		}
		t.Logf("%s: refused by sshd (\"Corrupted MAC on input\"), client saw: %v", mac, err)
	}
}

func TestOpenSSHClientRefusesAFlippedTag(t *testing.T) {
	k := makeKeys(t)
	for _, mac := range umacNames {
		s := startGoServer(t, k, mac)
		_, stderr, err := opensshClientCat(t, k, s.port, mac, []byte("hello"))
		if err == nil {
			t.Fatalf("%s: ssh succeeded with flipped tags", mac)
		}
		if !strings.Contains(stderr, "Corrupted MAC on input") {
			t.Fatalf("%s: ssh did not report a corrupted MAC (%v):\n%s", mac, err, stderr)
		}
		t.Logf("%s: refused by ssh (\"Corrupted MAC on input\")", mac)
	}
}
