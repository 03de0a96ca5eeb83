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

// TestExampleClientAgainstOpenSSH: the README's client (umacClient, in
// example_test.go) against a private sshd that offers only
// umac-128-etm@openssh.com, so that the client's second choice is
// negotiated, with a known_hosts file naming the host key.
func TestExampleClientAgainstOpenSSH(t *testing.T) {
	k := makeKeys(t)
	const mac = "umac-128-etm@openssh.com"
	s := startSshd(t, k, mac)
	addr := fmt.Sprintf("127.0.0.1:%d", s.Port)
	knownHosts := filepath.Join(t.TempDir(), "known_hosts")
	line := knownhosts.Line([]string{knownhosts.Normalize(addr)}, k.hostPublic)
	if err := os.WriteFile(knownHosts, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	client, err := umacClient(addr, userName(), k.Client, knownHosts)
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
