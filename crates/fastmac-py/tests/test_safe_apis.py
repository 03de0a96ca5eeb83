"""The safe APIs: SequencedUMAC (owns its nonce), ssh.OutboundMAC/InboundMAC
(own the packet numbers), UMACState.verify, and fastmac.badger (against
tests/vectors/badger.txt, nonce and sequential modes, tree prefixes)."""

from __future__ import annotations

import copy
import os
import pickle
import random
import threading

import pytest

import fastmac
import fastmac.badger
import fastmac.compat
import fastmac.ssh
from conftest import VECTORS

KEY = b"abcdefghijklmnop"
UMAC_SIZES = (4, 8, 12, 16)
BADGER_SIZES = (4, 8, 12, 16, 20)


# --- SequencedUMAC -----------------------------------------------------------


@pytest.mark.parametrize("size", UMAC_SIZES)
def test_sequenced_umac_tags_under_counter_nonces(size):
    sender = fastmac.SequencedUMAC(KEY, size)
    receiver = fastmac.UMAC(KEY, size)
    rng = random.Random(size)
    for expected_nonce in range(200):
        message = rng.randbytes(rng.randrange(0, 3000))
        if expected_nonce % 2:
            nonce, tag = sender.tag(memoryview(message))
        else:
            sender.update(message[:100])
            sender.update(bytearray(message[100:]))
            nonce, tag = sender.finalize()
        assert nonce == expected_nonce
        nonce_bytes = fastmac.SequencedUMAC.nonce_bytes(nonce)
        assert nonce_bytes == nonce.to_bytes(8, "big")
        assert tag == receiver.mac(nonce_bytes, message)
        receiver.verify(nonce_bytes, message, tag)
    assert (sender.next_nonce, sender.digest_size, sender.name) == (200, size, f"umac-{8 * size}")
    assert sender.remaining == 2**64 - 1 - 200


def test_sequenced_umac_rfc4418_vector_through_the_counter():
    """RFC 4418's "abc" (nonce "bcdefghi") from a counter started there."""
    start = int.from_bytes(b"bcdefghi", "big")
    sender = fastmac.SequencedUMAC(KEY, 8, start=start)
    assert sender.tag(b"abc") == (start, bytes.fromhex("d4d7b9f6bd4fbfcf"))


def test_sequenced_umac_refuses_at_its_limit_and_never_repeats():
    sender = fastmac.SequencedUMAC(KEY, 16, start=5, limit=8)
    assert [sender.tag(b"m")[0] for _ in range(3)] == [5, 6, 7]
    assert sender.remaining == 0
    for _ in range(3):
        with pytest.raises(fastmac.NonceExhaustedError, match="all 8 nonces of this key are used"):
            sender.tag(b"one more")
        assert sender.next_nonce == 8
    sender.update(b"streamed")
    with pytest.raises(fastmac.NonceExhaustedError):
        sender.finalize()
    # The top of the range: no wrap back to 0.
    top = fastmac.SequencedUMAC(KEY, start=2**64 - 2)
    assert top.tag(b"last")[0] == 2**64 - 2
    with pytest.raises(fastmac.NonceExhaustedError):
        top.tag(b"wrapped")


def test_sequenced_umac_cannot_be_copied():
    sender = fastmac.SequencedUMAC(KEY)
    for duplicate in (copy.copy, copy.deepcopy, lambda s: pickle.loads(pickle.dumps(s))):
        with pytest.raises(TypeError):
            duplicate(sender)
    assert sender.tag(b"x")[0] == 0


def test_sequenced_umac_shared_by_threads_hands_out_each_nonce_once():
    sender = fastmac.SequencedUMAC(KEY)
    seen: list[int] = []

    def worker() -> None:
        for _ in range(500):
            seen.append(sender.tag(b"packet")[0])

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(seen) == list(range(2000))


def test_sequenced_umac_bad_arguments_raise_typed_errors():
    cases = [
        (lambda: fastmac.SequencedUMAC(KEY[:15]), fastmac.KeyLengthError, "expected 16 bytes, got 15"),
        (lambda: fastmac.SequencedUMAC(KEY, 6), fastmac.TagLengthError, "digest_size must be 4, 8, 12 or 16"),
        (lambda: fastmac.SequencedUMAC(KEY, limit=0), fastmac.OutOfRangeError, "limit must be 1 to"),
        (lambda: fastmac.SequencedUMAC(KEY, limit=2**64), fastmac.OutOfRangeError, "limit must be 1 to"),
        (lambda: fastmac.SequencedUMAC(KEY, start=-1), fastmac.OutOfRangeError, "start must be 0 to"),
        (lambda: fastmac.SequencedUMAC(KEY, start=3, limit=3), fastmac.OutOfRangeError, "start must be 0 to 2"),
        (lambda: fastmac.SequencedUMAC.nonce_bytes(2**64), fastmac.OutOfRangeError, "nonce must be 0 to"),
    ]
    for call, kind, message in cases:
        with pytest.raises(kind, match=message):
            call()
    with pytest.raises(TypeError):
        fastmac.SequencedUMAC(KEY, start="0")
    with pytest.raises(TypeError):
        fastmac.SequencedUMAC(KEY).tag("text")


# --- UMACState.verify ------------------------------------------------------------


def test_umac_state_verify():
    mac = fastmac.UMAC(KEY, 16)
    message = os.urandom(5000)
    state = mac.new(message[:1000])
    state.update(message[1000:])
    tag = mac.mac(b"nonce", message)
    state.verify(b"nonce", tag)
    state.verify(bytearray(b"nonce"), memoryview(tag))
    for i in range(len(tag) * 8):
        bad = bytearray(tag)
        bad[i // 8] ^= 1 << (i % 8)
        with pytest.raises(fastmac.InvalidTag):
            state.verify(b"nonce", bad)
    with pytest.raises(fastmac.InvalidTag):
        state.verify(b"other", tag)
    with pytest.raises(fastmac.TagLengthError, match="expected 16 bytes, got 8"):
        state.verify(b"nonce", tag[:8])
    with pytest.raises(fastmac.NonceLengthError):
        state.verify(b"", tag)
    # verify leaves the state as it was: more data, new tag.
    state.verify(b"nonce", tag)
    state.update(b"more")
    state.verify(b"nonce", mac.mac(b"nonce", message + b"more"))


# --- digest under the nonce of the last digest --------------------------------


def streaming_states():
    """Each Python type with digest(nonce): (new state, tag of a message
    under a nonce, two valid nonces)."""
    umac = fastmac.UMAC(KEY, 8)
    badger = fastmac.badger.Badger(KEY, 8)
    umac_nonces = (b"n1", b"n2")
    badger_nonces = ((1).to_bytes(8, "little"), (2).to_bytes(8, "little"))
    return {
        "UMACState": (umac.new, lambda n, m: umac.mac(n, m), umac_nonces),
        "BadgerState": (badger.new, lambda n, m: badger.mac(n, m), badger_nonces),
    }


@pytest.mark.parametrize("kind", ["UMACState", "BadgerState"])
def test_digest_refuses_the_last_digests_nonce_once_the_message_grew(kind):
    new, tag_of, (first, second) = streaming_states()[kind]
    state = new()
    state.update(b"one")
    tag = state.digest(first)
    assert tag == tag_of(first, b"one")
    # The same message under the same nonce: the same tag, nothing revealed.
    assert state.digest(bytearray(first)) == tag
    state.update(b"")
    assert state.digest(first) == tag
    state.update(b" and two")
    with pytest.raises(fastmac.NonceReuseError, match="nonce must tag only one message"):
        state.digest(first)
    with pytest.raises(fastmac.NonceReuseError):
        state.digest(memoryview(first))
    # A copy carries the record; verify gives no tag and is not refused.
    with pytest.raises(fastmac.NonceReuseError):
        state.copy().digest(first)
    state.verify(first, tag_of(first, b"one and two"))
    # Another nonce is fine, and becomes the one refused.
    assert state.digest(second) == tag_of(second, b"one and two")
    state.update(b"!")
    # A refused or failed digest records nothing.
    with pytest.raises(fastmac.NonceLengthError):
        state.digest(b"")
    with pytest.raises(fastmac.NonceReuseError):
        state.digest(second)
    # Only the last digest's nonce is remembered (docs/umac.md section 5):
    # the check catches a state re-digested under its nonce, not every
    # reuse. SequencedUMAC is the API under which no nonce can repeat.
    assert state.digest(first) == tag_of(first, b"one and two!")
    grown = state.copy()
    grown.update(b"?")
    with pytest.raises(fastmac.NonceReuseError):
        grown.digest(first)
    assert issubclass(fastmac.NonceReuseError, fastmac.Error)
    assert issubclass(fastmac.NonceReuseError, ValueError)


def test_umac_state_hexdigest_and_compat_refuse_too():
    state = fastmac.UMAC(KEY, 8).new(b"one")
    assert state.hexdigest(b"n") == state.digest(b"n").hex()
    state.update(b"two")
    with pytest.raises(fastmac.NonceReuseError):
        state.hexdigest(b"n")
    compat = fastmac.compat.UMAC(8, KEY, b"nonce")
    compat.update(b"one")
    tag = compat.digest()
    assert compat.digest() == tag and compat.hexdigest() == tag.hex()
    copy = compat.copy()
    compat.update(b"two")
    for call in (compat.digest, compat.hexdigest, lambda: _compat_grown(copy)):
        with pytest.raises(fastmac.NonceReuseError):
            call()


def _compat_grown(compat):
    compat.update(b"two")
    return compat.digest()


# --- ssh.OutboundMAC / InboundMAC -----------------------------------------------

SSH_NAMES = ["umac-64@openssh.com", "umac-128-etm@openssh.com", "hmac-sha2-256", "hmac-sha1-96-etm@openssh.com"]


def ssh_key(name: str, byte: int) -> bytes:
    key_size = next(k for n, k, _t, _e in fastmac.ssh.algorithms() if n == name)
    return bytes([byte]) * key_size


@pytest.mark.parametrize("name", SSH_NAMES)
def test_outbound_and_inbound_number_packets_across_rekeys(name):
    out = fastmac.ssh.OutboundMAC(name, ssh_key(name, 1), next_seq=3)
    inb = fastmac.ssh.InboundMAC(name, ssh_key(name, 1), 3)
    assert (out.name, inb.name, out.next_seq, inb.next_seq) == (name, name, 3, 3)
    assert out.packets_left == fastmac.ssh.REKEY_AFTER_PACKETS == 2**31
    assert fastmac.ssh.INBOUND_PACKET_LIMIT == 2**32
    plain = fastmac.ssh.MAC(name, ssh_key(name, 1))
    for expected in range(3, 13):
        packet = os.urandom(expected * 50)
        seq, tag = out.compute(packet)
        assert seq == expected and tag == plain.compute(seq, packet)
        assert inb.verify(packet, tag) == seq
    assert out.packets_left == 2**31 - 10 and not inb.needs_rekey
    # A key exchange: new keys, the numbers continue (RFC 4253 section 6.4).
    out.rekey(name, ssh_key(name, 2))
    inb.rekey(name, ssh_key(name, 2))
    assert out.packets_left == 2**31
    seq, tag = out.compute(b"after rekey")
    assert seq == 13 and tag == fastmac.ssh.MAC(name, ssh_key(name, 2)).compute(13, b"after rekey")
    assert inb.verify(b"after rekey", tag) == 13
    assert out.digest_size == inb.digest_size == plain.digest_size


def test_inbound_refuses_out_of_order_replayed_and_altered_packets_and_stays():
    name = "umac-64-etm@openssh.com"
    out = fastmac.ssh.OutboundMAC(name, ssh_key(name, 5))
    inb = fastmac.ssh.InboundMAC(name, ssh_key(name, 5))
    packets = [(bytes([i]) * 40, out.compute(bytes([i]) * 40)[1]) for i in range(3)]
    with pytest.raises(fastmac.InvalidTag):
        inb.verify(*packets[1])  # out of order
    with pytest.raises(fastmac.InvalidTag):
        inb.verify(packets[0][0] + b"x", packets[0][1])  # altered
    with pytest.raises(fastmac.TagLengthError):
        inb.verify(packets[0][0], packets[0][1][:4])
    assert inb.next_seq == 0
    assert inb.verify(*packets[0]) == 0
    with pytest.raises(fastmac.InvalidTag):
        inb.verify(*packets[0])  # replayed
    assert [inb.verify(*p) for p in packets[1:]] == [1, 2]


def test_sequence_numbers_wrap_as_uint32_and_can_change_algorithm_at_rekey():
    out = fastmac.ssh.OutboundMAC("umac-64@openssh.com", KEY, 2**32 - 2)
    assert [out.compute(b"p")[0] for _ in range(4)] == [2**32 - 2, 2**32 - 1, 0, 1]
    out.rekey("hmac-sha2-512-etm@openssh.com", bytes(64))
    assert (out.name, out.digest_size, out.next_seq) == ("hmac-sha2-512-etm@openssh.com", 64, 2)
    assert "next_seq=2" in repr(out)


def test_ssh_sequenced_bad_arguments_raise_typed_errors():
    cases = [
        (lambda: fastmac.ssh.OutboundMAC("umac-32@openssh.com", KEY), fastmac.UnknownAlgorithmError),
        (lambda: fastmac.ssh.InboundMAC("hmac-sha1", KEY), fastmac.KeyLengthError),
        (lambda: fastmac.ssh.OutboundMAC("umac-64@openssh.com", KEY, 2**32), fastmac.OutOfRangeError),
        (lambda: fastmac.ssh.InboundMAC("umac-64@openssh.com", KEY, -1), fastmac.OutOfRangeError),
        (lambda: fastmac.ssh.OutboundMAC("umac-64@openssh.com", KEY).rekey("umac-64@openssh.com", KEY[:3]), fastmac.KeyLengthError),
        (lambda: fastmac.ssh.OutboundMAC("umac-64@openssh.com", KEY).compute("text"), TypeError),
    ]
    for call, kind in cases:
        with pytest.raises(kind):
            call()


# --- fastmac.badger --------------------------------------------------------------


def badger_vectors():
    """(kind, key, u, v or None, nonce or None, length, tag) in file order."""
    key = None
    for line in (VECTORS / "badger.txt").read_text().splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if fields[0] == "key":
            key = bytes.fromhex(fields[1])
        elif fields[0] == "nonce":
            yield "nonce", key, int(fields[1]), None, bytes.fromhex(fields[2]), int(fields[3]), bytes.fromhex(fields[4])
        elif fields[0] == "seq":
            yield "seq", key, int(fields[1]), int(fields[2]), int(fields[3]), int(fields[4]), bytes.fromhex(fields[5])


def message_of(length: int) -> bytes:
    return bytes(i % 251 for i in range(length))


def test_badger_equals_the_vector_file_in_both_modes():
    senders: dict[tuple, fastmac.badger.BadgerSender] = {}
    receivers: dict[tuple, fastmac.badger.BadgerReceiver] = {}
    nonce_rows = seq_rows = 0
    for kind, key, trees, levels, nonce_or_position, length, tag in badger_vectors():
        message = message_of(length)
        if kind == "nonce":
            mac = fastmac.badger.Badger(key, 4 * trees)
            assert mac.mac(nonce_or_position, message) == tag, (trees, length)
            mac.verify(nonce_or_position, message, tag)
            state = mac.new(message[: length // 2])
            state.update(message[length // 2 :])
            assert state.digest(nonce_or_position) == tag
            state.verify(nonce_or_position, tag)
            nonce_rows += 1
        else:
            config = (key, trees, levels)
            sender = senders.setdefault(config, fastmac.badger.BadgerSender(key, 4 * trees, levels=levels))
            receiver = receivers.setdefault(config, fastmac.badger.BadgerReceiver(key, 4 * trees, levels=levels))
            assert sender.position == receiver.position == nonce_or_position
            assert sender.tag(message) == tag, (trees, levels, nonce_or_position)
            receiver.verify(message, tag)
            seq_rows += 1
    assert nonce_rows >= 50 and seq_rows >= 20


@pytest.mark.parametrize("size", BADGER_SIZES)
def test_badger_verify_prefix_checks_only_the_first_trees(size):
    mac = fastmac.badger.Badger(KEY, size)
    nonce = (7).to_bytes(8, "little")
    message = os.urandom(3000)
    tag = mac.mac(nonce, message)
    for trees in range(1, size // 4 + 1):
        mac.verify_prefix(nonce, message, tag, trees)
        mac.verify_prefix(nonce, message, tag[: 4 * trees], trees)
        # A bad chunk beyond the checked prefix is not looked at...
        beyond = bytearray(tag)
        if 4 * trees < size:
            beyond[4 * trees] ^= 1
            mac.verify_prefix(nonce, message, beyond, trees)
            with pytest.raises(fastmac.InvalidTag):
                mac.verify(nonce, message, beyond)
        # ...one inside it is.
        inside = bytearray(tag)
        inside[4 * trees - 1] ^= 0x80
        with pytest.raises(fastmac.InvalidTag):
            mac.verify_prefix(nonce, message, inside, trees)
        state = mac.new(message)
        state.verify(nonce, tag[: 4 * trees], trees)
    with pytest.raises(fastmac.OutOfRangeError, match=f"trees must be 1 to {size // 4}"):
        mac.verify_prefix(nonce, message, tag, size // 4 + 1)
    with pytest.raises(fastmac.OutOfRangeError):
        mac.verify_prefix(nonce, message, tag, 0)


def test_badger_sequential_receiver_moves_only_on_success():
    sender = fastmac.badger.BadgerSender(KEY, 16)
    receiver = fastmac.badger.BadgerReceiver(KEY, 16)
    messages = [os.urandom(n) for n in (0, 10, 1000, 5000)]
    tags = [sender.tag(m) for m in messages]
    assert sender.position == 4
    with pytest.raises(fastmac.InvalidTag):
        receiver.verify(messages[1], tags[1])  # out of order
    forged = bytearray(tags[0])
    forged[0] ^= 1
    with pytest.raises(fastmac.InvalidTag):
        receiver.verify(messages[0], forged)
    assert receiver.position == 0
    receiver.verify(messages[0], tags[0])
    receiver.verify(messages[1], tags[1][:8], trees=2)
    receiver.update(messages[2][:10])
    receiver.update(messages[2][10:])
    receiver.verify_streamed(tags[2])
    receiver.verify(messages[3], tags[3])
    assert receiver.position == 4
    # Streaming on the sender side gives the same tags.
    again = fastmac.badger.BadgerSender(KEY, 16)
    for message, tag in zip(messages, tags):
        again.update(message)
        assert again.finalize() == tag
    again.update(b"discarded")
    again.reset()
    assert again.position == 4


def test_badger_typed_errors():
    nonce = (1).to_bytes(8, "little")
    cases = [
        (lambda: fastmac.badger.Badger(KEY[:8]), fastmac.KeyLengthError, "expected 16 bytes, got 8"),
        (lambda: fastmac.badger.Badger(KEY, 24), fastmac.TagLengthError, "4, 8, 12, 16 or 20"),
        (lambda: fastmac.badger.Badger(KEY, levels=0), fastmac.OutOfRangeError, "levels must be 1 to 58"),
        (lambda: fastmac.badger.BadgerSender(KEY, levels=59), fastmac.OutOfRangeError, "levels must be 1 to 58"),
        (lambda: fastmac.badger.Badger(KEY).mac(bytes(8), b"m"), fastmac.ZeroNonceError, "nonce 0 is reserved"),
        (lambda: fastmac.badger.Badger(KEY).mac(b"short", b"m"), fastmac.NonceLengthError, "expected 8 bytes, got 5"),
        (lambda: fastmac.badger.Badger(KEY).verify(nonce, b"m", b"123"), fastmac.TagLengthError, "got 3"),
        (lambda: fastmac.badger.Badger(KEY, levels=1).mac(nonce, bytes(17)), fastmac.MessageTooLongError, "at most 16 bytes"),
        (lambda: fastmac.badger.BadgerReceiver(KEY).verify(b"m", bytes(8), trees=3), fastmac.OutOfRangeError, "trees must be 1 to 2"),
        (lambda: fastmac.badger.forgery_bound_log2(6, 100), fastmac.OutOfRangeError, "trees must be 1 to 5"),
    ]
    for call, kind, message in cases:
        with pytest.raises(kind, match=message):
            call()
    for cls in (fastmac.badger.BadgerSender, fastmac.badger.BadgerReceiver):
        with pytest.raises(TypeError):
            copy.copy(cls(KEY))


def test_badger_forgery_bounds_and_attributes():
    # The paper's table 2 (two trees): -57.7 at 2 KiB, -52.2 at 2^61 - 1 bytes.
    assert round(fastmac.badger.forgery_bound_log2(2, 1 << 11), 1) == -57.7
    assert round(fastmac.badger.forgery_bound_log2(2, (1 << 61) - 1), 1) == -52.2
    mac = fastmac.badger.Badger(KEY, 20)
    assert (mac.digest_size, mac.name, repr(mac)) == (20, "badger-160", "<fastmac.badger.Badger badger-160>")
    assert mac.max_message_len == 2**61 - 1
    assert (fastmac.badger.KEY_SIZE, fastmac.badger.NONCE_SIZE, fastmac.badger.MAX_TREES, fastmac.badger.MAX_LEVELS) == (16, 8, 5, 58)
    assert fastmac.badger.__doc__ and fastmac.badger.Badger.verify_prefix.__doc__
    assert fastmac.SequencedUMAC.tag.__doc__ and fastmac.ssh.OutboundMAC.compute.__doc__
