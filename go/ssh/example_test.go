package ssh

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// umacClient connects to the SSH server at addr as user, with the private
// key in keyFile, checks the server's host key against knownHostsFile, and
// asks for UMAC: umac-64-etm@openssh.com, else umac-128-etm@openssh.com,
// with aes128-ctr (an AEAD cipher such as chacha20-poly1305@openssh.com
// carries its own tag and uses no MAC).
func umacClient(addr, user, keyFile, knownHostsFile string) (*ssh.Client, error) {
	pem, err := os.ReadFile(keyFile)
	if err != nil {
		return nil, err
	}
	signer, err := ssh.ParsePrivateKey(pem)
	if err != nil {
		return nil, err
	}
	hostKeys, err := knownhosts.New(knownHostsFile)
	if err != nil {
		return nil, err
	}
	return ssh.Dial("tcp", addr, &ssh.ClientConfig{
		User:            user,
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(signer)},
		HostKeyCallback: hostKeys,
		Config: ssh.Config{
			Ciphers: []string{ssh.CipherAES128CTR},
			MACs:    []string{ssh.UMAC64ETM, ssh.UMAC128ETM},
		},
		Timeout: 20 * time.Second,
	})
}

// A command run over a connection that UMAC protects: umacClient with the
// user's key and known_hosts file. TestExampleClientAgainstOpenSSH runs
// umacClient against OpenSSH's sshd.
func Example_client() {
	home, err := os.UserHomeDir()
	if err != nil {
		log.Fatal(err)
	}
	client, err := umacClient("server.example:22", "alice",
		filepath.Join(home, ".ssh", "id_ed25519"), filepath.Join(home, ".ssh", "known_hosts"))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	session, err := client.NewSession()
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	out, err := session.Output("uname -a")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out))
}
