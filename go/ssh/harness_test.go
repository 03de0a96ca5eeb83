// Package ssh runs SSH sessions between golang.org/x/crypto/ssh, patched to
// speak umac-*@openssh.com through package umac, and the real OpenSSH:
// a private sshd (own host key, config and log, a free port on 127.0.0.1)
// and the ssh client. Every process is stopped and every step is bounded in
// time.
package ssh

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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
	payloadSize = 10 << 20
	stepTimeout = 120 * time.Second
)

const (
	sshdPath   = "/usr/sbin/sshd"
	sshPath    = "/usr/bin/ssh"
	keygenPath = "/usr/bin/ssh-keygen"
)

// keys are the test's host and client keys (ed25519) in a temp directory.
type keys struct {
	dir, host, client, authorized string
	hostPublic                    ssh.PublicKey
	clientSigner                  ssh.Signer
	hostSigner                    ssh.Signer
	clientPublic                  ssh.PublicKey
}

func requireOpenSSH(t *testing.T) {
	t.Helper()
	for _, p := range []string{sshdPath, sshPath, keygenPath} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s is missing (make test-go installs openssh-server and openssh-client): %v", p, err)
		}
	}
}

func makeKeys(t *testing.T) *keys {
	t.Helper()
	requireOpenSSH(t)
	k := &keys{dir: t.TempDir()}
	k.host = filepath.Join(k.dir, "host_ed25519")
	k.client = filepath.Join(k.dir, "client_ed25519")
	for _, path := range []string{k.host, k.client} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		out, err := exec.CommandContext(ctx, keygenPath, "-q", "-t", "ed25519", "-N", "", "-C", "fastmac-go-test", "-f", path).CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("ssh-keygen: %v: %s", err, out)
		}
	}
	k.hostSigner = loadSigner(t, k.host)
	k.clientSigner = loadSigner(t, k.client)
	k.hostPublic, k.clientPublic = k.hostSigner.PublicKey(), k.clientSigner.PublicKey()
	k.authorized = filepath.Join(k.dir, "authorized_keys")
	if err := os.WriteFile(k.authorized, ssh.MarshalAuthorizedKey(k.clientPublic), 0o600); err != nil {
		t.Fatal(err)
	}
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

func currentUser(t *testing.T) string {
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	return u.Username
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// sshd is a private OpenSSH server offering one MAC.
type sshd struct {
	cmd  *exec.Cmd
	port int
	log  string
}

// startSshd starts `sshd -D` with its own config; readiness is its log line
// "Server listening on 127.0.0.1 port N." (-E appends, so each has its own
// log). The test's cleanup stops it and the per-connection sshd processes
// it forked (those call setsid(), so a process group would miss them).
func startSshd(t *testing.T, k *keys, mac string) *sshd {
	t.Helper()
	if os.Geteuid() == 0 {
		// The privilege separation directory, which Debian's service unit
		// creates and a test does not run.
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tag := strings.ReplaceAll(mac, "@", "_at_")
	for attempt := 0; attempt < 3; attempt++ {
		s := &sshd{port: freePort(t), log: filepath.Join(k.dir, "sshd-"+tag+".log")}
		config := filepath.Join(k.dir, "sshd-"+tag+".conf")
		lines := []string{
			"Port " + strconv.Itoa(s.port),
			"ListenAddress 127.0.0.1",
			"HostKey " + k.host,
			"PidFile " + filepath.Join(k.dir, "sshd-"+tag+".pid"),
			"AuthorizedKeysFile " + k.authorized,
			"StrictModes no",
			"UsePAM no",
			"PubkeyAuthentication yes",
			"PasswordAuthentication no",
			"KbdInteractiveAuthentication no",
			"PermitRootLogin prohibit-password",
			"AllowUsers " + currentUser(t),
			"Ciphers " + cipher,
			"MACs " + mac,
			"LogLevel DEBUG1",
			"UseDNS no",
			"PrintMotd no",
			"PrintLastLog no",
			"",
		}
		if err := os.WriteFile(config, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(sshdPath, "-t", "-f", config).CombinedOutput(); err != nil {
			t.Fatalf("sshd -t: %v: %s", err, out)
		}
		os.WriteFile(s.log, nil, 0o600)
		s.cmd = exec.Command(sshdPath, "-D", "-f", config, "-E", s.log)
		if err := s.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { s.cmd.Wait(); close(done) }()
		t.Cleanup(func() { s.stop(done) })
		if s.waitLog(fmt.Sprintf("Server listening on 127.0.0.1 port %d.", s.port), 15*time.Second, done) {
			return s
		}
		s.stop(done) // the port was taken in between: try another
	}
	t.Fatal("sshd did not start")
	return nil
}

func (s *sshd) logText() string {
	b, _ := os.ReadFile(s.log)
	return string(b)
}

func (s *sshd) waitLog(needle string, timeout time.Duration, done <-chan struct{}) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if strings.Contains(s.logText(), needle) {
			return true
		}
		select {
		case <-done:
			return strings.Contains(s.logText(), needle)
		case <-time.After(50 * time.Millisecond):
		}
	}
	return false
}

func (s *sshd) stop(done <-chan struct{}) {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	children := descendants(s.cmd.Process.Pid)
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
	for _, pid := range children {
		syscall.Kill(pid, syscall.SIGTERM)
	}
	s.cmd = nil
}

// descendants lists the processes below pid, from /proc.
func descendants(pid int) []int {
	parents := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The fields after the command name, which is in parentheses.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) > 1 {
			if ppid, err := strconv.Atoi(fields[1]); err == nil {
				parents[ppid] = append(parents[ppid], child)
			}
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range parents[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
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

// opensshClientCat runs the real ssh client against port with one MAC,
// `cat` as the command, payload on stdin; it returns stdout and stderr
// (with -v, which names the negotiated MAC).
func opensshClientCat(k *keys, port int, mac string, payload []byte) (stdout []byte, stderr string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), stepTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, sshPath, "-F", "/dev/null", "-v",
		"-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
		"-o", "ConnectTimeout=20", "-o", "Ciphers="+cipher, "-o", "MACs="+mac,
		"-i", k.client, "-p", strconv.Itoa(port), userName()+"@127.0.0.1", "cat")
	cmd.Stdin = bytes.NewReader(payload)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.Bytes(), errOut.String(), err
}

// report prints one row of the session table.
func report(t *testing.T, direction, mac string, sent, got []byte) {
	t.Helper()
	a, b := sha256.Sum256(sent), sha256.Sum256(got)
	match := "yes"
	if a != b {
		match = "NO"
	}
	fmt.Printf("| %-30s | %-26s | %9d up, %9d down | SHA-256 %x... match: %s |\n",
		direction, mac, len(sent), len(got), a[:6], match)
	if a != b {
		t.Fatalf("%s with %s: %d bytes sent, %d came back, SHA-256 differs", direction, mac, len(sent), len(got))
	}
}
