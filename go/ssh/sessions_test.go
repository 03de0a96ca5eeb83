//go:build !umac_flip_tag

package ssh

import (
	"strings"
	"testing"
)

// TestGoClientToOpenSSHServer: the patched Go client against a private
// sshd, for each UMAC name: 10 MiB up through `cat` and the same 10 MiB
// back, checked by SHA-256; sshd's log confirms the MAC in use.
func TestGoClientToOpenSSHServer(t *testing.T) {
	k := makeKeys(t)
	for _, mac := range umacNames {
		s := startSshd(t, k, mac)
		payload := randomPayload(t)
		got, err := goClientCat(k, s.port, mac, payload)
		if err != nil {
			t.Fatalf("%s: %v\nsshd log:\n%s", mac, err, s.logText())
		}
		want := "cipher: " + cipher + " MAC: " + mac
		if !strings.Contains(s.logText(), "client->server "+want) || !strings.Contains(s.logText(), "server->client "+want) {
			t.Fatalf("%s: sshd's log does not show %q both ways:\n%s", mac, want, s.logText())
		}
		report(t, "Go client -> OpenSSH sshd", mac, payload, got)
	}
}

// TestOpenSSHClientToGoServer: the real ssh client against a Go SSH server
// on the patched package, for each UMAC name, the same 10 MiB echo; ssh -v
// confirms the MAC in use.
func TestOpenSSHClientToGoServer(t *testing.T) {
	k := makeKeys(t)
	for _, mac := range umacNames {
		s := startGoServer(t, k, mac)
		payload := randomPayload(t)
		got, stderr, err := opensshClientCat(k, s.port, mac, payload)
		if err != nil {
			t.Fatalf("%s: ssh: %v\n%s", mac, err, stderr)
		}
		want := "cipher: " + cipher + " MAC: " + mac
		if !strings.Contains(stderr, "client->server "+want) || !strings.Contains(stderr, "server->client "+want) {
			t.Fatalf("%s: ssh -v does not show %q both ways:\n%s", mac, want, stderr)
		}
		report(t, "OpenSSH ssh -> Go server", mac, payload, got)
	}
}
