//go:build nettle && cgo && amd64

package nettle

/*
#cgo pkg-config: nettle
#include <stddef.h>
#include <stdint.h>
#include <nettle/umac.h>

// fm_umac tags one message with a fresh context per call.
static int fm_umac(int tag_size, const uint8_t *key, size_t nonce_len, const uint8_t *nonce,
                   size_t len, const uint8_t *msg, uint8_t *out) {
	switch (tag_size) {
	case 4: { struct umac32_ctx c; umac32_set_key(&c, key); umac32_set_nonce(&c, nonce_len, nonce);
		umac32_update(&c, len, msg); umac32_digest(&c, 4, out); return 0; }
	case 8: { struct umac64_ctx c; umac64_set_key(&c, key); umac64_set_nonce(&c, nonce_len, nonce);
		umac64_update(&c, len, msg); umac64_digest(&c, 8, out); return 0; }
	case 12: { struct umac96_ctx c; umac96_set_key(&c, key); umac96_set_nonce(&c, nonce_len, nonce);
		umac96_update(&c, len, msg); umac96_digest(&c, 12, out); return 0; }
	case 16: { struct umac128_ctx c; umac128_set_key(&c, key); umac128_set_nonce(&c, nonce_len, nonce);
		umac128_update(&c, len, msg); umac128_digest(&c, 16, out); return 0; }
	}
	return -1;
}

// fm_umac_run tags count messages of one context: the nonce is set once
// and Nettle increments it after every digest (its pad cache's case).
// Message i is msgs[offsets[i] .. offsets[i+1]).
static int fm_umac_run(int tag_size, const uint8_t *key, size_t nonce_len, const uint8_t *nonce,
                       size_t count, const size_t *offsets, const uint8_t *msgs, uint8_t *out) {
	struct umac32_ctx c32; struct umac64_ctx c64; struct umac96_ctx c96; struct umac128_ctx c128;
	switch (tag_size) {
	case 4: umac32_set_key(&c32, key); umac32_set_nonce(&c32, nonce_len, nonce); break;
	case 8: umac64_set_key(&c64, key); umac64_set_nonce(&c64, nonce_len, nonce); break;
	case 12: umac96_set_key(&c96, key); umac96_set_nonce(&c96, nonce_len, nonce); break;
	case 16: umac128_set_key(&c128, key); umac128_set_nonce(&c128, nonce_len, nonce); break;
	default: return -1;
	}
	for (size_t i = 0; i < count; i++) {
		size_t len = offsets[i + 1] - offsets[i];
		const uint8_t *m = msgs + offsets[i];
		uint8_t *o = out + i * tag_size;
		switch (tag_size) {
		case 4: umac32_update(&c32, len, m); umac32_digest(&c32, 4, o); break;
		case 8: umac64_update(&c64, len, m); umac64_digest(&c64, 8, o); break;
		case 12: umac96_update(&c96, len, m); umac96_digest(&c96, 12, o); break;
		case 16: umac128_update(&c128, len, m); umac128_digest(&c128, 16, o); break;
		}
	}
	return 0;
}
*/
import "C"

import (
	"fmt"
	"unsafe"
)

func ptr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

// MAC returns Nettle's tag of msg (tagSize 4, 8, 12 or 16 bytes; key of 16
// bytes; nonce of 1 to 16 bytes).
func MAC(tagSize int, key, nonce, msg []byte) ([]byte, error) {
	if len(key) != 16 || len(nonce) < 1 || len(nonce) > 16 {
		return nil, fmt.Errorf("nettle: key %d bytes, nonce %d bytes", len(key), len(nonce))
	}
	out := make([]byte, 16)
	if C.fm_umac(C.int(tagSize), ptr(key), C.size_t(len(nonce)), ptr(nonce), C.size_t(len(msg)), ptr(msg), ptr(out)) != 0 {
		return nil, fmt.Errorf("nettle: tag size %d", tagSize)
	}
	return out[:tagSize], nil
}

// Run tags msgs with one context: the first under nonce, each next one
// under the nonce Nettle increments (a big-endian counter of the nonce's
// length). It returns the tags.
func Run(tagSize int, key, nonce []byte, msgs [][]byte) ([][]byte, error) {
	if len(key) != 16 || len(nonce) < 1 || len(nonce) > 16 || len(msgs) == 0 {
		return nil, fmt.Errorf("nettle: key %d bytes, nonce %d bytes, %d messages", len(key), len(nonce), len(msgs))
	}
	offsets := make([]C.size_t, len(msgs)+1)
	var all []byte
	for i, m := range msgs {
		all = append(all, m...)
		offsets[i+1] = C.size_t(len(all))
	}
	out := make([]byte, tagSize*len(msgs))
	if C.fm_umac_run(C.int(tagSize), ptr(key), C.size_t(len(nonce)), ptr(nonce), C.size_t(len(msgs)),
		&offsets[0], ptr(all), ptr(out)) != 0 {
		return nil, fmt.Errorf("nettle: tag size %d", tagSize)
	}
	tags := make([][]byte, len(msgs))
	for i := range tags {
		tags[i] = out[i*tagSize : (i+1)*tagSize]
	}
	return tags, nil
}
