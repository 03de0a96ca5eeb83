//! A streaming state that `digest(nonce)` leaves going on (hashlib style,
//! PEP 452), with the one nonce check such a state can make: the nonce of
//! its last `digest` is refused once the message has grown. Tagging two
//! different messages under one nonce would reveal the difference of their
//! hashes (docs/umac.md section 5); the same message under the
//! same nonce gives the same tag again and reveals nothing.

use pyo3::prelude::*;

use crate::errors::NonceReuseError;

/// A keyed MAC's streaming state, `M`, and what it remembers of its last
/// `digest`. `copy()` copies both, so a copy refuses the nonce too.
#[derive(Clone)]
pub struct Streaming<M> {
    mac: M,
    last_digest: Option<LastDigest>,
}

#[derive(Clone)]
struct LastDigest {
    nonce: Vec<u8>,
    /// Bytes were appended since that digest.
    message_grew: bool,
}

impl<M: Clone> Streaming<M> {
    /// A state that has given no digest yet.
    pub fn new(mac: M) -> Streaming<M> {
        Streaming { mac, last_digest: None }
    }

    /// The state, for what does not give a tag (verify on a copy, the
    /// length limits).
    pub fn mac(&self) -> &M {
        &self.mac
    }

    /// Appends `data` with `absorb`.
    pub fn update(&mut self, data: &[u8], absorb: impl FnOnce(&mut M, &[u8])) {
        absorb(&mut self.mac, data);
        if let Some(last) = &mut self.last_digest {
            last.message_grew |= !data.is_empty();
        }
    }

    /// The tag of the message so far under `nonce`, by `finalize` on a copy
    /// of the state (the state goes on). Refused with `NonceReuseError`
    /// when the last digest took `nonce` and the message grew since; a
    /// refused or failed call records nothing.
    pub fn digest<T>(&mut self, nonce: &[u8], finalize: impl FnOnce(M, &[u8]) -> PyResult<T>) -> PyResult<T> {
        if let Some(last) = &self.last_digest
            && last.message_grew
            && last.nonce == nonce
        {
            return Err(NonceReuseError::new_err(
                "this nonce gave the state's last digest, and the message has grown since: \
                 a nonce must tag only one message under a key",
            ));
        }
        let tag = finalize(self.mac.clone(), nonce)?;
        self.last_digest = Some(LastDigest { nonce: nonce.to_vec(), message_grew: false });
        Ok(tag)
    }
}
