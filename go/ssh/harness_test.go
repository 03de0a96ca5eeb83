// Package ssh runs SSH sessions between golang.org/x/crypto/ssh, patched to
// speak umac-*@openssh.com through package umac, and the real OpenSSH:
// a private sshd and the ssh client, both from the repository's one sshd
// harness, tests/ssh/sshd_harness.py, run as a script (it writes the keys
// and the sshd_config, starts sshd on a free port of 127.0.0.1, and reads
// the negotiated MACs from the logs). Every process is stopped and every
// step is bounded in time.
package ssh

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// The four UMAC names, and the one non-AEAD cipher both sides use (an AEAD
// cipher would not use the MAC at all).
var umacNames = []string{
	"umac-64@openssh.com", "umac-128@openssh.com",
	"umac-64-etm@openssh.com", "umac-128-etm@openssh.com",
}

const (
	cipher      = "aes128-ctr"
	payloadSize = 4 << 20
	stepTimeout = 120 * time.Second
	// The harness, from this package's folder (go test's working directory).
	// sshd and ssh re-key at its RekeyLimit (768K): 16 to 18 key exchanges
	// for payloadSize each way, which the Go side must follow.
	harnessPath = "../../tests/ssh/sshd_harness.py"
	// The least number of key exchanges a session must show.
	minKeyExchanges = 8
)

// harness runs the sshd harness with args and returns its standard output
// (one line of JSON).
func harness(t *testing.T, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, pythonPath(t), append([]string{harnessPath}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sshd_harness.py %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

func pythonPath(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 runs tests/ssh/sshd_harness.py and is missing (make test-go installs it): %v", err)
	}
	return path
}

// keys are the test's host and client keys (ed25519) in a temp directory,
// as the harness made them.
type keys struct {
	dir          string
	Host         string `json:"host"`
	Client       string `json:"client"`
	Authorized   string `json:"authorized"`
	KnownHosts   string `json:"known_hosts"`
	hostPublic   ssh.PublicKey
	clientSigner ssh.Signer
	hostSigner   ssh.Signer
	clientPublic ssh.PublicKey
}

func makeKeys(t *testing.T) *keys {
	t.Helper()
	k := &keys{dir: t.TempDir()}
	if err := json.Unmarshal(harness(t, "keys", k.dir), k); err != nil {
		t.Fatal(err)
	}
	k.hostSigner = loadSigner(t, k.Host)
	k.clientSigner = loadSigner(t, k.Client)
	k.hostPublic, k.clientPublic = k.hostSigner.PublicKey(), k.clientSigner.PublicKey()
	return k
}

func loadSigner(t *testing.T, path string) ssh.Signer {
	t.Helper()
	pem, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.ParsePrivateKey(pem)
	if err != nil {
		t.Fatal(err)
	}
	return signer
}

// sshd is a private OpenSSH server offering one MAC, run by the harness
// (`sshd_harness.py serve`), which stops it, with the per-connection
// processes it forked, when its standard input closes.
type sshd struct {
	Port  int    `json:"port"`
	Log   string `json:"log"`
	Pid   int    `json:"pid"`
	stdin io.WriteCloser
}

func startSshd(t *testing.T, k *keys, mac string) *sshd {
	t.Helper()
	work := t.TempDir()
	cmd := exec.Command(pythonPath(t), harnessPath, "serve", "--work", work, "--keys", k.dir, "--mac", mac)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	lines := make(chan []byte, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadBytes('\n')
		lines <- line
		io.Copy(io.Discard, stdout)
		cmd.Wait()
		close(done)
	}()
	s := &sshd{stdin: stdin}
	select {
	case line := <-lines:
		if err := json.Unmarshal(line, s); err != nil || s.Port == 0 {
			t.Fatalf("sshd_harness.py serve: %q (%v)\n%s", line, err, stderr.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("sshd_harness.py serve did not report a server:\n%s", stderr.String())
	}
	return s
}

func (s *sshd) logText() string {
	b, _ := os.ReadFile(s.Log)
	return string(b)
}

// waitLog reports whether needle appears in sshd's log within timeout, or
// before sshd exits: the harness's wait, which the log's writes wake (no
// timer).
func (s *sshd) waitLog(t *testing.T, needle string, timeout time.Duration) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout+60*time.Second)
	defer cancel()
	seconds := strconv.FormatFloat(timeout.Seconds(), 'f', -1, 64)
	cmd := exec.CommandContext(ctx, pythonPath(t), harnessPath, "wait", "--log", s.Log,
		"--pid", strconv.Itoa(s.Pid), "--timeout", seconds, "--line", needle)
	out, err := cmd.Output()
	var answer struct {
		Found bool `json:"found"`
	}
	if err == nil {
		err = json.Unmarshal(out, &answer)
	}
	if err != nil {
		t.Fatalf("sshd_harness.py wait: %v", err)
	}
	return answer.Found
}

// negotiated is what the harness reads from a debug log of ssh or sshd:
// how many key exchanges, and each direction's cipher and MAC at each.
type negotiated struct {
	KeyExchanges int         `json:"key_exchanges"`
	Kex          [][3]string `json:"kex"`
}

func readNegotiated(t *testing.T, log string) negotiated {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, pythonPath(t), harnessPath, "negotiated", "-")
	cmd.Stdin = strings.NewReader(log)
	out, err := cmd.Output()
	var n negotiated
	if err == nil {
		err = json.Unmarshal(out, &n)
	}
	if err != nil {
		t.Fatalf("sshd_harness.py negotiated: %v", err)
	}
	return n
}

// requireOnly fails the test unless log shows at least minKeyExchanges key
// exchanges and every one of them, both directions, used cipher and mac.
func requireOnly(t *testing.T, who, log, mac string) negotiated {
	t.Helper()
	n := readNegotiated(t, log)
	directions := map[string]bool{}
	for _, kex := range n.Kex {
		if kex[1] != cipher || kex[2] != mac {
			t.Fatalf("%s: %s negotiated %s/%s, not %s/%s:\n%s", mac, who, kex[1], kex[2], cipher, mac, log)
		}
		directions[kex[0]] = true
	}
	if !directions["client->server"] || !directions["server->client"] {
		t.Fatalf("%s: %s's log shows no key exchange naming %s both ways:\n%s", mac, who, mac, log)
	}
	if n.KeyExchanges < minKeyExchanges {
		t.Fatalf("%s: %s's log shows %d key exchanges, not the %d or more of a session that re-keys:\n%s",
			mac, who, n.KeyExchanges, minKeyExchanges, log)
	}
	return n
}

func randomPayload(t *testing.T) []byte {
	b := make([]byte, payloadSize)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

// goClientCat runs `cat` on the server at port through the patched Go
// client with exactly one MAC, sending payload and returning what came back.
func goClientCat(k *keys, port int, mac string, payload []byte) ([]byte, error) {
	config := &ssh.ClientConfig{
		User:            userName(),
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(k.clientSigner)},
		HostKeyCallback: ssh.FixedHostKey(k.hostPublic),
		Config:          ssh.Config{Ciphers: []string{cipher}, MACs: []string{mac}},
		Timeout:         20 * time.Second,
	}
	conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 20*time.Second)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(stepTimeout))
	c, chans, reqs, err := ssh.NewClientConn(conn, conn.RemoteAddr().String(), config)
	if err != nil {
		return nil, err
	}
	client := ssh.NewClient(c, chans, reqs)
	defer client.Close()
	session, err := client.NewSession()
	if err != nil {
		return nil, err
	}
	defer session.Close()
	session.Stdin = bytes.NewReader(payload)
	var out bytes.Buffer
	session.Stdout = &out
	if err := session.Run("cat"); err != nil {
		return out.Bytes(), err
	}
	return out.Bytes(), nil
}

func userName() string {
	u, err := user.Current()
	if err != nil {
		return "root"
	}
	return u.Username
}

// goServer is an SSH server on the patched package, offering one MAC and
// answering `exec cat` by echoing the channel's input.
type goServer struct {
	listener net.Listener
	port     int
}

func startGoServer(t *testing.T, k *keys, mac string) *goServer {
	t.Helper()
	config := &ssh.ServerConfig{
		Config: ssh.Config{Ciphers: []string{cipher}, MACs: []string{mac}},
		PublicKeyCallback: func(_ ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
			if bytes.Equal(key.Marshal(), k.clientPublic.Marshal()) {
				return nil, nil
			}
			return nil, fmt.Errorf("unknown key")
		},
	}
	config.AddHostKey(k.hostSigner)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &goServer{listener: l, port: l.Addr().(*net.TCPAddr).Port}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go serveConn(conn, config)
		}
	}()
	return s
}

func serveConn(conn net.Conn, config *ssh.ServerConfig) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(stepTimeout))
	_, chans, reqs, err := ssh.NewServerConn(conn, config)
	if err != nil {
		return
	}
	go ssh.DiscardRequests(reqs)
	for newChannel := range chans {
		if newChannel.ChannelType() != "session" {
			newChannel.Reject(ssh.UnknownChannelType, "sessions only")
			continue
		}
		channel, requests, err := newChannel.Accept()
		if err != nil {
			return
		}
		go func() {
			defer channel.Close()
			for req := range requests {
				// exec's payload is the command as an SSH string.
				if req.Type == "exec" && len(req.Payload) > 4 && string(req.Payload[4:]) == "cat" {
					req.Reply(true, nil)
					io.Copy(channel, channel)
					channel.CloseWrite()
					channel.SendRequest("exit-status", false, []byte{0, 0, 0, 0})
					return
				}
				req.Reply(false, nil)
			}
		}()
	}
}

// opensshClientCat runs the real ssh client, as the harness invokes it
// (the test's key, the host key checked, one cipher and one MAC), against
// port with `cat` as the command and payload on stdin; it returns stdout and
// stderr (the -v debug log, which names the negotiated MAC).
func opensshClientCat(t *testing.T, k *keys, port int, mac string, payload []byte) (stdout []byte, stderr string, err error) {
	t.Helper()
	var argv []string
	if err := json.Unmarshal(harness(t, "client-argv", "--keys", k.dir, "--port", strconv.Itoa(port),
		"--mac", mac, "--", "cat"), &argv); err != nil || len(argv) == 0 {
		t.Fatalf("sshd_harness.py client-argv: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), stepTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(payload)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.Bytes(), errOut.String(), err
}

// report prints one row of the session table.
func report(t *testing.T, direction, mac string, sent, got []byte, keyExchanges int) {
	t.Helper()
	a, b := sha256.Sum256(sent), sha256.Sum256(got)
	match := "yes"
	if a != b {
		match = "NO"
	}
	fmt.Printf("| %-30s | %-26s | %9d up, %9d down | SHA-256 %x... match: %s | %3d key exchanges |\n",
		direction, mac, len(sent), len(got), a[:6], match, keyExchanges)
	if a != b {
		t.Fatalf("%s with %s: %d bytes sent, %d came back, SHA-256 differs", direction, mac, len(sent), len(got))
	}
}
