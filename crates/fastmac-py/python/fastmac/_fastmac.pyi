"""Type stubs of fastmac's compiled core (``fastmac._fastmac``)."""

from typing import Literal, final

from typing_extensions import Buffer

__version__: str
#: ``bytes`` messages of at least this many bytes are processed with the GIL
#: released (other buffers are read with the GIL held).
GIL_MINSIZE: int

class Error(ValueError):
    """Base class of fastmac's errors."""

class KeyLengthError(Error):
    """The key does not have the length the algorithm needs."""

class NonceLengthError(Error):
    """The nonce length is outside what the algorithm accepts (1 to 16 bytes)."""

class TagLengthError(Error):
    """A tag or digest size has the wrong length."""

class UnknownAlgorithmError(Error):
    """No algorithm has this name."""

class SequenceNumberError(Error):
    """An SSH sequence number outside 0 .. 2**32 - 1."""

class InvalidTag(Error):
    """The tag does not authenticate the message."""

class NonceExhaustedError(Error):
    """Every nonce (or SSH packet number) this key may use is used: rekey."""

class ZeroNonceError(Error):
    """Badger reserves the all-zero nonce."""

class NonceReuseError(Error):
    """A streaming state's digest under the nonce of its last digest, after
    the message grew."""

class OutOfRangeError(Error):
    """A numeric parameter is outside its range."""

class MessageTooLongError(Error):
    """The message is longer than the keyed object can hash."""

@final
class UMAC:
    """UMAC (RFC 4418) under one 16-byte key, expanded once."""

    def __init__(self, key: Buffer, digest_size: Literal[4, 8, 12, 16] = 8) -> None: ...
    def mac(self, nonce: Buffer, data: Buffer) -> bytes:
        """The tag of ``data`` under ``nonce`` (1 to 16 bytes)."""
    def verify(self, nonce: Buffer, data: Buffer, tag: Buffer) -> None:
        """Constant-time check; raises InvalidTag or TagLengthError."""
    def new(self, data: Buffer | None = None) -> UMACState:
        """A streaming state under this key."""
    @property
    def digest_size(self) -> int: ...
    @property
    def key_size(self) -> int: ...
    @property
    def name(self) -> str: ...

@final
class UMACState:
    """A message being streamed into a UMAC (from ``UMAC.new()``)."""

    def update(self, data: Buffer, /) -> None: ...
    def digest(self, nonce: Buffer) -> bytes:
        """The tag of the message so far; the state goes on. Raises
        NonceReuseError for the last digest's nonce once the message grew."""
    def verify(self, nonce: Buffer, tag: Buffer) -> None:
        """Constant-time check of the message so far; raises InvalidTag or
        TagLengthError. The state goes on."""
    def hexdigest(self, nonce: Buffer) -> str: ...
    def copy(self) -> UMACState: ...
    @property
    def digest_size(self) -> int: ...
    @property
    def name(self) -> str: ...

@final
class SequencedUMAC:
    """A sender's UMAC that owns its counter nonce (never repeats or wraps)."""

    def __init__(
        self,
        key: Buffer,
        digest_size: Literal[4, 8, 12, 16] = 8,
        *,
        start: int = 0,
        limit: int = ...,
    ) -> None: ...
    def tag(self, data: Buffer, /) -> tuple[int, bytes]:
        """``(nonce, tag)`` of ``data`` under the next nonce; raises
        NonceExhaustedError at the limit."""
    def update(self, data: Buffer, /) -> None:
        """Streams more of the next message."""
    def finalize(self) -> tuple[int, bytes]:
        """``(nonce, tag)`` of the streamed message; starts the next one."""
    @staticmethod
    def nonce_bytes(nonce: int) -> bytes:
        """The 8 big-endian nonce bytes of counter value ``nonce``."""
    @property
    def next_nonce(self) -> int: ...
    @property
    def remaining(self) -> int: ...
    @property
    def digest_size(self) -> int: ...
    @property
    def name(self) -> str: ...

@final
class MAC:
    """An SSH MAC by its OpenSSH name, keyed once per direction
    (exported as ``fastmac.ssh.MAC``)."""

    def __init__(self, name: str, key: Buffer) -> None: ...
    def compute(self, seq: int, packet: Buffer) -> bytes:
        """The tag of packet number ``seq`` (0 .. 2**32 - 1)."""
    def verify(self, seq: int, packet: Buffer, tag: Buffer) -> None:
        """Constant-time check; raises InvalidTag or TagLengthError."""
    @property
    def name(self) -> str: ...
    @property
    def key_size(self) -> int: ...
    @property
    def digest_size(self) -> int: ...
    @property
    def etm(self) -> bool: ...

def algorithms() -> list[tuple[str, int, int, bool]]:
    """Every supported SSH MAC as ``(name, key_size, digest_size, etm)``."""

#: Packets an OutboundMAC tags under one key (OpenSSH's 2**31).
REKEY_AFTER_PACKETS: int
#: Packets an InboundMAC verifies under one key (2**32).
INBOUND_PACKET_LIMIT: int

@final
class OutboundMAC:
    """One SSH direction's sender: owns the packet sequence number
    (exported as ``fastmac.ssh.OutboundMAC``)."""

    def __init__(self, name: str, key: Buffer, next_seq: int = 0) -> None: ...
    def compute(self, packet: Buffer, /) -> tuple[int, bytes]:
        """``(seq, tag)`` of the next packet; NonceExhaustedError after
        REKEY_AFTER_PACKETS under one key."""
    def rekey(self, name: str, key: Buffer) -> None:
        """New keys; the sequence numbers continue."""
    @property
    def next_seq(self) -> int: ...
    @property
    def packets_left(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def digest_size(self) -> int: ...

@final
class InboundMAC:
    """One SSH direction's receiver: owns the packet sequence number
    (exported as ``fastmac.ssh.InboundMAC``)."""

    def __init__(self, name: str, key: Buffer, next_seq: int = 0) -> None: ...
    def verify(self, packet: Buffer, tag: Buffer) -> int:
        """The packet's sequence number; raises InvalidTag (and stays) if
        the tag does not verify."""
    def rekey(self, name: str, key: Buffer) -> None:
        """New keys; the sequence numbers continue."""
    @property
    def next_seq(self) -> int: ...
    @property
    def needs_rekey(self) -> bool: ...
    @property
    def name(self) -> str: ...
    @property
    def digest_size(self) -> int: ...

BADGER_KEY_SIZE: int
BADGER_NONCE_SIZE: int
BADGER_MAX_TREES: int
BADGER_MAX_LEVELS: int

_BadgerSize = Literal[4, 8, 12, 16, 20]

@final
class Badger:
    """Badger in nonce mode (exported as ``fastmac.badger.Badger``)."""

    def __init__(self, key: Buffer, digest_size: _BadgerSize = 8, *, levels: int = 58) -> None: ...
    def mac(self, nonce: Buffer, data: Buffer) -> bytes:
        """The tag of ``data`` under ``nonce`` (8 bytes, not all zero)."""
    def verify(self, nonce: Buffer, data: Buffer, tag: Buffer) -> None:
        """Constant-time check of the whole tag; raises InvalidTag."""
    def verify_prefix(self, nonce: Buffer, data: Buffer, tag: Buffer, trees: int) -> None:
        """Checks only the first ``trees`` 4-byte chunks of the tag."""
    def new(self, data: Buffer | None = None) -> BadgerState:
        """A streaming state under this key."""
    @property
    def digest_size(self) -> int: ...
    @property
    def max_message_len(self) -> int: ...
    @property
    def name(self) -> str: ...

@final
class BadgerState:
    """A message being streamed into a nonce-mode Badger."""

    def update(self, data: Buffer, /) -> None: ...
    def digest(self, nonce: Buffer) -> bytes:
        """The tag of the message so far; the state goes on. Raises
        NonceReuseError for the last digest's nonce once the message grew."""
    def verify(self, nonce: Buffer, tag: Buffer, trees: int | None = None) -> None:
        """Constant-time check of the message so far; the state goes on."""
    def copy(self) -> BadgerState: ...
    @property
    def digest_size(self) -> int: ...

@final
class BadgerSender:
    """Sequential-mode Badger, sending side (messages in order, no nonce)."""

    def __init__(self, key: Buffer, digest_size: _BadgerSize = 8, *, levels: int = 58) -> None: ...
    def tag(self, data: Buffer, /) -> bytes:
        """Tags ``data`` as the next message."""
    def update(self, data: Buffer, /) -> None: ...
    def finalize(self) -> bytes:
        """Tags the streamed message as the next message."""
    def reset(self) -> None: ...
    @property
    def position(self) -> int: ...
    @property
    def digest_size(self) -> int: ...

@final
class BadgerReceiver:
    """Sequential-mode Badger, receiving side (moves on only on success)."""

    def __init__(self, key: Buffer, digest_size: _BadgerSize = 8, *, levels: int = 58) -> None: ...
    def verify(self, data: Buffer, tag: Buffer, trees: int | None = None) -> None:
        """Checks ``tag`` for the next message; raises InvalidTag and stays."""
    def update(self, data: Buffer, /) -> None: ...
    def verify_streamed(self, tag: Buffer, trees: int | None = None) -> None:
        """``verify`` for the streamed message; the stream restarts."""
    def reset(self) -> None: ...
    @property
    def position(self) -> int: ...
    @property
    def digest_size(self) -> int: ...

def forgery_bound_log2(trees: int, max_len: int) -> float:
    """log2 of the forgery probability per attempt (paper section 6)."""
