package umac_test

import (
	"fmt"

	"fastmac.dev/go/umac"
)

// The RFC 4418 appendix vector for "abc" with a 64-bit tag.
func ExampleUMAC_MAC() {
	u, err := umac.New([]byte("abcdefghijklmnop"), 8)
	if err != nil {
		panic(err)
	}
	tag, err := u.MAC(nil, []byte("bcdefghi"), []byte("abc"))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%X\n", tag)
	fmt.Println(u.Verify([]byte("bcdefghi"), []byte("abc"), tag))
	// Output:
	// D4D7B9F6BD4FBFCF
	// true
}

// A message written in pieces gets the same tag as in one call.
func ExampleStream() {
	u, _ := umac.New([]byte("abcdefghijklmnop"), 16)
	s := u.NewStream()
	for i := 0; i < 500; i++ {
		s.Write([]byte("abc"))
	}
	tag, _ := s.Sum(nil, []byte("bcdefghi"))
	fmt.Printf("%X\n", tag)
	// Output: 8824A260C53C66A36C9260A62CB83AA1
}

// A sender that owns its nonces: the receiver verifies with the counter
// value sent along (or counted on its side).
func ExampleSequenced() {
	key := []byte("abcdefghijklmnop")
	sender, _ := umac.NewSequenced(key, 8)
	receiver, _ := umac.New(key, 8)
	for _, msg := range []string{"first", "second"} {
		n, tag, err := sender.MAC(nil, []byte(msg))
		if err != nil {
			panic(err) // umac.ErrNonceExhausted: rekey
		}
		nonce := umac.CounterNonce(n)
		fmt.Println(n, receiver.Verify(nonce[:], []byte(msg), tag))
	}
	// Output:
	// 0 true
	// 1 true
}

// The hash.Hash shape golang.org/x/crypto/ssh drives: the 4-byte packet
// number first (the nonce, not hashed), then the packet.
func ExampleNewSSH() {
	h, _ := umac.NewSSH([]byte("abcdefghijklmnop"), 8)
	h.Reset()
	h.Write([]byte{0, 0, 0, 7}) // packet number 7
	h.Write([]byte("packet"))
	tag := h.Sum(nil)

	u, _ := umac.New([]byte("abcdefghijklmnop"), 8)
	nonce := umac.CounterNonce(7)
	fmt.Println(u.Verify(nonce[:], []byte("packet"), tag))
	// Output: true
}
