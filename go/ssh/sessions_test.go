//go:build !umac_flip_tag

package ssh

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh/knownhosts"
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

// TestExampleClientAgainstOpenSSH: the README's client (umacClient, in
// example_test.go) against a private sshd that offers only
// umac-128-etm@openssh.com, so that the client's second choice is
// negotiated, with a known_hosts file naming the host key.
func TestExampleClientAgainstOpenSSH(t *testing.T) {
	k := makeKeys(t)
	const mac = "umac-128-etm@openssh.com"
	s := startSshd(t, k, mac)
	addr := fmt.Sprintf("127.0.0.1:%d", s.port)
	knownHosts := filepath.Join(k.dir, "known_hosts")
	line := knownhosts.Line([]string{knownhosts.Normalize(addr)}, k.hostPublic)
	if err := os.WriteFile(knownHosts, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	client, err := umacClient(addr, currentUser(t), k.client, knownHosts)
	if err != nil {
		t.Fatalf("umacClient: %v\nsshd log:\n%s", err, s.logText())
	}
	defer client.Close()
	session, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	out, err := session.Output("echo umac")
	if err != nil || string(out) != "umac\n" {
		t.Fatalf("echo over the session: %q, %v\nsshd log:\n%s", out, err, s.logText())
	}
	if want := "client->server cipher: " + cipher + " MAC: " + mac; !strings.Contains(s.logText(), want) {
		t.Fatalf("sshd's log does not show %q:\n%s", want, s.logText())
	}
	t.Logf("umacClient ran a command through sshd with %s", mac)
}
