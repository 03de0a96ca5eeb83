//! Multi-threaded UHASH of a regular file (cargo feature `parallel`), a
//! driver above the chunk engine (`super::uhash`), on plain scoped threads:
//! each thread takes the next unit of the file, reads it with positioned
//! reads into its own cache-sized buffer and NH-hashes it there; the
//! thread that finishes the oldest unit not yet absorbed feeds it (and any
//! later ones already done) to L2 as a run. Threads block on a lock or a
//! condition variable, never spin, and none waits for another unless it is
//! too far ahead of L2 (which bounds the memory held to a few units' L1
//! outputs, whatever the file's size).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Seek, SeekFrom};
use std::num::NonZeroUsize;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use zeroize::Zeroize;

use super::l1::{L1_CHUNK, l1_chunks};
use super::l2::Outputs;
use super::parallel::PARALLEL_MIN;
use super::uhash::{UhashKey, UhashState};
use crate::file::{self, ReadBuf};

/// Bytes of a file one thread reads and NH-hashes as one unit of work:
/// 2 MiB, so that a thread takes the lock a few times per millisecond and
/// the last unit leaves the other threads idle for well under a
/// millisecond. A multiple of the read piece and of the chunk.
const UNIT: u64 = 2 << 20;
/// Units a thread may take beyond the oldest one not yet absorbed into L2,
/// per thread: enough to keep every thread busy while one unit is late.
const AHEAD_PER_THREAD: u64 = 2;

/// `file` from its current position to its end, streamed into `state`: a
/// regular file of at least [`PARALLEL_MIN`] unread bytes in units on up
/// to `threads` threads (one per unit at most; with one, on this thread,
/// which still saves the state's per-chunk steps), any other input by
/// plain reads. Returns the bytes read; on an error the state holds part
/// of the file, and the caller resets it.
pub(crate) fn update_from_file<const ITERS: usize, const K: usize>(
    key: &UhashKey<K>,
    state: &mut UhashState<ITERS>,
    file: &mut File,
    threads: NonZeroUsize,
) -> io::Result<u64> {
    let mut buf = ReadBuf::new();
    let span = file::unread_span(file)?.filter(|&(_, len)| len >= PARALLEL_MIN as u64);
    let Some((start, len)) = span else {
        return file::read_to_end(file, &mut buf, |piece| state.update(key, piece));
    };
    // Up to a chunk boundary here; then every whole chunk but the last on
    // all threads; then the last chunk (which may end the message, and so
    // must not go through L2 yet) and anything appended since the size was
    // taken, by plain reads.
    let head = (state.bytes_to_chunk_boundary() as u64).min(len);
    file::read_span(file, start, head, &mut buf, |piece| state.update(key, piece))?;
    let whole = (len - head).saturating_sub(1) / L1_CHUNK as u64 * L1_CHUNK as u64;
    if whole > 0 {
        let l2 = state.l2_at_chunk_boundary(key).expect("the head ends on a chunk boundary");
        l1_from_file::<ITERS, K>(key, file, start + head, whole, threads.get(), |outputs| {
            l2.absorb(&key.l2, outputs);
        })?;
    }
    file.seek(SeekFrom::Start(start + head + whole))?;
    let rest = file::read_to_end(file, &mut buf, |piece| state.update(key, piece))?;
    if rest == 0 && head + whole < len {
        // The chunks given to L2 were not the message's last after all.
        return Err(file::shrank(start + head + whole));
    }
    Ok(head + whole + rest)
}

/// L1-HASH of `len` bytes of `file` from `offset` (whole chunks, none of
/// them the message's last) on up to `threads` threads (this one
/// included), handing the outputs to `absorb` in file order.
fn l1_from_file<const ITERS: usize, const K: usize>(
    key: &UhashKey<K>,
    file: &File,
    offset: u64,
    len: u64,
    threads: usize,
    absorb: impl FnMut(&[[u64; ITERS]]) + Send,
) -> io::Result<()> {
    debug_assert_eq!(len % L1_CHUNK as u64, 0);
    let units = len.div_ceil(UNIT);
    let threads = u64::try_from(threads).map_or(units, |t| t.min(units));
    let order = InOrder::new(units, threads * AHEAD_PER_THREAD, absorb);
    let work = || {
        let mut buf = ReadBuf::new();
        while let Some((unit, mut outputs)) = order.take_unit() {
            let at = unit * UNIT;
            outputs.clear();
            let read = file::read_span(file, offset + at, UNIT.min(len - at), &mut buf, |piece| {
                l1_chunks(&key.l1, piece.as_chunks::<L1_CHUNK>().0).each(|word| outputs.push(word));
            });
            match read {
                Ok(()) => order.finish_unit(unit, outputs),
                Err(err) => order.fail(err),
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            // A thread the system cannot start leaves its share to the
            // others.
            if std::thread::Builder::new().spawn_scoped(scope, work).is_err() {
                break;
            }
        }
        work();
    });
    order.into_result()
}

/// Units of L1 outputs finished in any order, absorbed in file order.
struct InOrder<F, const ITERS: usize> {
    state: Mutex<OrderState<ITERS>>,
    /// Signalled when L2 absorbed a unit or a read failed.
    progress: Condvar,
    /// Held by the thread whose turn it is to absorb (`absorbing`), so
    /// never contended.
    absorb: Mutex<F>,
    units: u64,
    most_ahead: u64,
}

struct OrderState<const ITERS: usize> {
    /// The next unit to hand out.
    next: u64,
    /// Units absorbed into L2 so far.
    absorbed: u64,
    /// Finished units waiting for an earlier one.
    finished: BTreeMap<u64, Vec<[u64; ITERS]>>,
    /// A thread is absorbing finished units.
    absorbing: bool,
    /// Output buffers of absorbed units, for reuse.
    spare: Vec<Vec<[u64; ITERS]>>,
    /// The first read error; it stops the work.
    error: Option<io::Error>,
    /// Threads waiting on `progress` (a notification costs a system call
    /// even when nobody waits).
    waiting: usize,
}

impl<F: FnMut(&[[u64; ITERS]]), const ITERS: usize> InOrder<F, ITERS> {
    fn new(units: u64, most_ahead: u64, absorb: F) -> Self {
        InOrder {
            state: Mutex::new(OrderState {
                next: 0,
                absorbed: 0,
                finished: BTreeMap::new(),
                absorbing: false,
                spare: Vec::new(),
                error: None,
                waiting: 0,
            }),
            progress: Condvar::new(),
            absorb: Mutex::new(absorb),
            units,
            most_ahead,
        }
    }

    /// A panic on another thread already fails the whole scope; the state
    /// it left is not used after that.
    fn lock(&self) -> MutexGuard<'_, OrderState<ITERS>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next unit to hash and an empty buffer for its outputs; waits
    /// while this thread would be too far ahead of L2. `None` when every
    /// unit is handed out or a read failed.
    fn take_unit(&self) -> Option<(u64, Vec<[u64; ITERS]>)> {
        let mut state = self.lock();
        loop {
            if state.error.is_some() || state.next == self.units {
                return None;
            }
            if state.next < state.absorbed + self.most_ahead {
                let unit = state.next;
                state.next += 1;
                let outputs =
                    state.spare.pop().unwrap_or_else(|| Vec::with_capacity((UNIT / L1_CHUNK as u64) as usize));
                return Some((unit, outputs));
            }
            state.waiting += 1;
            state = self.progress.wait(state).unwrap_or_else(PoisonError::into_inner);
            state.waiting -= 1;
        }
    }

    /// Files a finished unit; if no thread is absorbing, this one absorbs
    /// every unit that is next in order, outside the lock.
    fn finish_unit(&self, unit: u64, outputs: Vec<[u64; ITERS]>) {
        let mut state = self.lock();
        state.finished.insert(unit, outputs);
        if state.absorbing {
            return;
        }
        state.absorbing = true;
        while state.error.is_none() {
            let next = state.absorbed;
            let Some(outputs) = state.finished.remove(&next) else { break };
            drop(state);
            (self.absorb.lock().unwrap_or_else(PoisonError::into_inner))(&outputs);
            let mut outputs = outputs;
            outputs.zeroize();
            state = self.lock();
            state.absorbed += 1;
            state.spare.push(outputs);
            if state.waiting > 0 {
                self.progress.notify_all();
            }
        }
        state.absorbing = false;
    }

    fn fail(&self, err: io::Error) {
        self.lock().error.get_or_insert(err);
        self.progress.notify_all();
    }

    /// The first error, if any; the L1 outputs still held are wiped.
    fn into_result(self) -> io::Result<()> {
        let mut state = self.state.into_inner().unwrap_or_else(PoisonError::into_inner);
        for outputs in state.finished.values_mut() {
            outputs.zeroize();
        }
        match state.error {
            Some(err) => Err(err),
            None => {
                debug_assert_eq!(state.absorbed, self.units);
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use aes::Aes128;
    use aes::cipher::KeyInit;

    use super::*;
    use crate::umac::backend::Backend;
    use crate::umac::l1::l1_hash;

    fn key() -> UhashKey<2> {
        UhashKey::derive(&Aes128::new(&[9; 16].into()), Backend::detect())
    }

    /// The L1 outputs of `data` (whole chunks) from a file, on `threads`
    /// threads, in the order `absorb` received them.
    fn outputs_from_file(
        key: &UhashKey<2>,
        file: &File,
        offset: u64,
        len: u64,
        threads: usize,
    ) -> io::Result<Vec<[u64; 2]>> {
        let mut seen = Vec::new();
        l1_from_file::<2, 2>(key, file, offset, len, threads, |outputs| seen.extend_from_slice(outputs))?;
        Ok(seen)
    }

    fn temp_file(name: &str, contents: &[u8]) -> (std::path::PathBuf, File) {
        let path = std::env::temp_dir().join(format!("fastmac-parallel-{name}-{}", std::process::id()));
        File::create(&path).unwrap().write_all(contents).unwrap();
        let file = File::open(&path).unwrap();
        (path, file)
    }

    #[test]
    fn outputs_arrive_in_file_order_on_any_number_of_threads() {
        let data: Vec<u8> = (0..5 * UNIT as usize + 3 * L1_CHUNK).map(|i| (i ^ (i >> 11)) as u8).collect();
        let (path, file) = temp_file("order", &data);
        let key = key();
        let offset = L1_CHUNK as u64;
        let len = data.len() as u64 - offset;
        let expected: Vec<[u64; 2]> =
            data[L1_CHUNK..].chunks_exact(L1_CHUNK).map(|c| l1_hash::<2>(&key.l1, c)).collect();
        for threads in [1, 2, 3, 8] {
            assert_eq!(outputs_from_file(&key, &file, offset, len, threads).unwrap(), expected, "{threads} threads");
        }
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn a_file_shorter_than_its_span_is_an_error() {
        let data = vec![7u8; 3 * UNIT as usize + L1_CHUNK];
        let (path, file) = temp_file("short", &data);
        let key = key();
        for threads in [1, 2, 3] {
            let err = outputs_from_file(&key, &file, 0, 4 * UNIT, threads).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof, "{threads} threads");
            assert!(err.to_string().contains("shrank"), "{err}");
        }
        std::fs::remove_file(path).unwrap();
    }
}
