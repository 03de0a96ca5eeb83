//go:build !umac_flip_tag

package ssh

import (
	"testing"
)

// TestGoClientToOpenSSHServer: the patched Go client against a private
// sshd, for each UMAC name: 4 MiB up through `cat` and the same 4 MiB
// back, checked by SHA-256, across the re-keys sshd starts; sshd's log,
// read by the harness, confirms the cipher and MAC of every key exchange,
// both ways.
func TestGoClientToOpenSSHServer(t *testing.T) {
	k := makeKeys(t)
	for _, mac := range umacNames {
		s := startSshd(t, k, mac)
		payload := randomPayload(t)
		got, err := goClientCat(k, s.Port, mac, payload)
		if err != nil {
			t.Fatalf("%s: %v\nsshd log:\n%s", mac, err, s.logText())
		}
		n := requireOnly(t, "sshd", s.logText(), mac)
		report(t, "Go client -> OpenSSH sshd", mac, payload, got, n.KeyExchanges)
	}
}

// TestOpenSSHClientToGoServer: the real ssh client against a Go SSH server
// on the patched package, for each UMAC name, the same 4 MiB echo across the
// re-keys ssh starts; ssh -v, read by the harness, confirms the cipher and
// MAC of every key exchange.
func TestOpenSSHClientToGoServer(t *testing.T) {
	k := makeKeys(t)
	for _, mac := range umacNames {
		s := startGoServer(t, k, mac)
		payload := randomPayload(t)
		got, stderr, err := opensshClientCat(t, k, s.port, mac, payload)
		if err != nil {
			t.Fatalf("%s: ssh: %v\n%s", mac, err, stderr)
		}
		n := requireOnly(t, "ssh -v", stderr, mac)
		report(t, "OpenSSH ssh -> Go server", mac, payload, got, n.KeyExchanges)
	}
}
