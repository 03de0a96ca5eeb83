//! fastmac's errors as Python exceptions: one base class, a `ValueError`,
//! and one subclass per kind, so callers can catch exactly what they mean.
//! Messages come from `fastmac::Error`'s Display: lengths and names only,
//! never key or tag bytes.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(fastmac, Error, PyValueError, "Base class of fastmac's errors (a ValueError).");
create_exception!(fastmac, KeyLengthError, Error, "The key does not have the length the algorithm needs.");
create_exception!(fastmac, NonceLengthError, Error, "The nonce length is outside what the algorithm accepts.");
create_exception!(fastmac, TagLengthError, Error, "A tag or digest size has the wrong length.");
create_exception!(fastmac, UnknownAlgorithmError, Error, "No algorithm has this name.");
create_exception!(fastmac, SequenceNumberError, Error, "An SSH sequence number outside 0 .. 2**32 - 1.");
create_exception!(fastmac, InvalidTag, Error, "The tag does not authenticate the message (raised by verify).");
create_exception!(
    fastmac,
    NonceExhaustedError,
    Error,
    "Every nonce (or SSH packet number) this key may use is used: rekey. Nonces never repeat or wrap."
);
create_exception!(
    fastmac,
    ZeroNonceError,
    Error,
    "Badger reserves the all-zero nonce (its pad would be key material)."
);
create_exception!(
    fastmac,
    NonceReuseError,
    Error,
    "A streaming state's digest under the nonce of its last digest, after the message grew: one nonce, one message."
);
create_exception!(fastmac, OutOfRangeError, Error, "A numeric parameter is outside its range.");
create_exception!(fastmac, MessageTooLongError, Error, "The message is longer than the keyed object can hash.");

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("KeyLengthError", py.get_type::<KeyLengthError>())?;
    m.add("NonceLengthError", py.get_type::<NonceLengthError>())?;
    m.add("TagLengthError", py.get_type::<TagLengthError>())?;
    m.add("UnknownAlgorithmError", py.get_type::<UnknownAlgorithmError>())?;
    m.add("SequenceNumberError", py.get_type::<SequenceNumberError>())?;
    m.add("InvalidTag", py.get_type::<InvalidTag>())?;
    m.add("NonceExhaustedError", py.get_type::<NonceExhaustedError>())?;
    m.add("ZeroNonceError", py.get_type::<ZeroNonceError>())?;
    m.add("NonceReuseError", py.get_type::<NonceReuseError>())?;
    m.add("OutOfRangeError", py.get_type::<OutOfRangeError>())?;
    m.add("MessageTooLongError", py.get_type::<MessageTooLongError>())?;
    Ok(())
}

/// The Python exception for a library error.
pub fn to_py(err: fastmac::Error) -> PyErr {
    let message = err.to_string();
    match err {
        fastmac::Error::KeyLength { .. } => KeyLengthError::new_err(message),
        fastmac::Error::NonceLength { .. } => NonceLengthError::new_err(message),
        fastmac::Error::TagLength { .. } | fastmac::Error::UnsupportedTagLength { .. } => {
            TagLengthError::new_err(message)
        }
        fastmac::Error::InvalidTag => InvalidTag::new_err(message),
        fastmac::Error::UnknownAlgorithm(_) => UnknownAlgorithmError::new_err(message),
        fastmac::Error::NonceExhausted { .. } => NonceExhaustedError::new_err(message),
        fastmac::Error::ZeroNonce => ZeroNonceError::new_err(message),
        fastmac::Error::OutOfRange { .. } => OutOfRangeError::new_err(message),
        fastmac::Error::MessageTooLong { .. } => MessageTooLongError::new_err(message),
        _ => Error::new_err(message),
    }
}

/// [`to_py`], with a tag length the library does not support said in
/// Python's words: the constructors' `digest_size` argument.
pub fn digest_size_error(err: fastmac::Error) -> PyErr {
    match err {
        fastmac::Error::UnsupportedTagLength { supported, got } => {
            let sizes: Vec<String> = supported.iter().map(usize::to_string).collect();
            let (last, rest) = sizes.split_last().expect("every MAC has tag lengths");
            TagLengthError::new_err(format!("digest_size must be {} or {last}, got {got}", rest.join(", ")))
        }
        other => to_py(other),
    }
}
