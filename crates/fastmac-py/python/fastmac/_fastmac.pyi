"""Type stubs of fastmac's compiled core (``fastmac._fastmac``)."""

from typing import Literal, final

from typing_extensions import Buffer

__version__: str
#: Inputs of at least this many bytes are processed with the GIL released.
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
        """The tag of the message so far; the state goes on."""
    def hexdigest(self, nonce: Buffer) -> str: ...
    def copy(self) -> UMACState: ...
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
