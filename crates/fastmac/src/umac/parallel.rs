//! Multi-core UHASH for large inputs (cargo feature `parallel`).
//!
//! L1-HASH hashes each 1024-byte chunk independently (RFC 4418 section
//! 5.2.1), so the chunks of a large input are NH-hashed on several cores;
//! L2-HASH (section 5.3) is a polynomial evaluated in chunk order, so it
//! is either split into runs whose results combine in order (in memory,
//! within POLY64's range) or kept sequential, overlapping the NH of later
//! chunks. Two drivers:
//!
//! * **In memory** ([`absorb_chunks`]), on rayon. While L2-HASH is POLY64
//!   (the first 2^14 chunks, 16 MiB), each task hashes its chunks through
//!   NH and through POLY64 from zero, as a [`Poly64Run`]; L2 then applies
//!   the runs in order, one multiply-add each, so POLY64 runs on every
//!   core along with NH instead of after it. Past that, batches: while the
//!   pool hashes batch n + 1, L2 absorbs the outputs of batch n with
//!   POLY128, and rayon's work stealing gives the rest of the pool to NH.
//!   Inside a one-thread rayon pool the sequential code runs instead, which
//!   is how the benchmark compares the two paths in one process.
//! * **From a file** ([`Umac::update_from_file`]), on plain scoped threads:
//!   each thread takes the next unit of the file, reads it with positioned
//!   reads into its own cache-sized buffer and NH-hashes it there; the
//!   thread that finishes the oldest unit not yet absorbed feeds it (and
//!   any later ones already done) to L2. Threads block on a lock or a
//!   condition variable, never spin, and none waits for another unless it
//!   is too far ahead of L2 (which bounds the memory held to a few units'
//!   L1 outputs, whatever the file's size).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Seek, SeekFrom};
use std::num::NonZeroUsize;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use rayon::prelude::*;

use zeroize::Zeroizing;

use super::l1::{self, L1_CHUNK, L1Output, l1_hash_chunk};
use super::l2::{L2Hash, Poly64Run};
use super::nh::{MAX_ITERS, NhKey};
use super::uhash::UhashKey;
use super::{PARALLEL_MIN, Umac};
use crate::file::{self, ReadBuf};

/// Whether `len` bytes should be hashed on several cores: large enough, and
/// more than one thread in the current rayon pool (in a one-thread pool the
/// sequential loop is the faster single-core path).
pub(crate) fn worth_it(len: usize) -> bool {
    len >= PARALLEL_MIN && rayon::current_num_threads() > 1
}
/// Chunks per batch: 1 MiB of message, 32 KiB of L1 outputs (small enough
/// for the allocator to reuse heap memory rather than map fresh pages).
const BATCH_CHUNKS: usize = 1024;
/// Chunks per rayon task: 64 KiB, long enough to amortize a steal.
const TASK_CHUNKS: usize = 64;

/// L1-HASH and L2-HASH of `data` (whole chunks, none of them the message's
/// last) on all cores of the current rayon pool, absorbed into `l2` in
/// order: the chunks within POLY64's range as one [`Poly64Run`] per task,
/// the rest through [`l1_in_batches`].
pub(crate) fn absorb_chunks<const ITERS: usize>(key: &UhashKey, l2: &mut L2Hash, data: &[u8]) {
    debug_assert_eq!(data.len() % L1_CHUNK, 0);
    let (in_poly64, rest) = data.split_at((data.len() / L1_CHUNK).min(l2.poly64_room()) * L1_CHUNK);
    let runs: Zeroizing<Vec<Poly64Run<ITERS>>> = Zeroizing::new(
        in_poly64
            .par_chunks(TASK_CHUNKS * L1_CHUNK)
            .map(|task| {
                let mut run = Poly64Run::default();
                for chunk in task.chunks_exact(L1_CHUNK) {
                    run.absorb(&key.l2, &l1::l1_outputs::<ITERS>(&key.l1, chunk));
                }
                run
            })
            .collect(),
    );
    for run in runs.iter() {
        l2.absorb_run(run);
    }
    if !rest.is_empty() {
        l1_in_batches(&key.l1, ITERS, rest, |outputs| l2.absorb_hashed(&key.l2, ITERS, outputs));
    }
}

/// Hashes `data` (whole chunks, none of them the message's last) in
/// batches, handing each batch's L1 outputs to `absorb` in order.
fn l1_in_batches(key: &NhKey, iters: usize, data: &[u8], mut absorb: impl FnMut(&[L1Output]) + Send) {
    debug_assert_eq!(data.len() % L1_CHUNK, 0);
    let mut current = vec![[0u64; MAX_ITERS]; BATCH_CHUNKS];
    let mut previous = vec![[0u64; MAX_ITERS]; BATCH_CHUNKS];
    let mut previous_len = 0;
    for batch in data.chunks(BATCH_CHUNKS * L1_CHUNK) {
        let outputs = &mut current[..batch.len() / L1_CHUNK];
        let done = &previous[..previous_len];
        rayon::join(|| absorb(done), || l1_outputs(key, iters, batch, outputs));
        previous_len = outputs.len();
        core::mem::swap(&mut current, &mut previous);
    }
    absorb(&previous[..previous_len]);
}

/// L1-HASH of each whole chunk.
fn l1_outputs(key: &NhKey, iters: usize, data: &[u8], outputs: &mut [L1Output]) {
    outputs.par_chunks_mut(TASK_CHUNKS).zip(data.par_chunks(TASK_CHUNKS * L1_CHUNK)).for_each(|(outs, chunks)| {
        for (out, chunk) in outs.iter_mut().zip(chunks.chunks_exact(L1_CHUNK)) {
            *out = l1_hash_chunk(key, iters, chunk);
        }
    });
}

/// Bytes of a file one thread reads and NH-hashes as one unit of work:
/// 2 MiB, so that a thread takes the lock a few times per millisecond and
/// the last unit leaves the other threads idle for well under a
/// millisecond. A multiple of the read piece and of the chunk.
const UNIT: u64 = 2 << 20;
/// Units a thread may take beyond the oldest one not yet absorbed into L2,
/// per thread: enough to keep every thread busy while one unit is late.
const AHEAD_PER_THREAD: u64 = 2;

impl<const TAG_LEN: usize> Umac<TAG_LEN> {
    /// [`crate::DynMac::update_from_file`] for UMAC: a regular file of at
    /// least [`PARALLEL_MIN`] unread bytes in units on up to `threads`
    /// threads (one per unit at most; with one, on this thread, which
    /// still saves the streaming state's per-chunk steps), any other input
    /// by plain reads.
    pub(crate) fn update_from_file(&mut self, file: &mut File, threads: NonZeroUsize) -> io::Result<u64> {
        let read = self.stream_file(file, threads);
        if read.is_err() {
            self.reset();
        }
        read
    }

    fn stream_file(&mut self, file: &mut File, threads: NonZeroUsize) -> io::Result<u64> {
        let mut buf = ReadBuf::new();
        let span = file::unread_span(file)?.filter(|&(_, len)| len >= PARALLEL_MIN as u64);
        let Some((start, len)) = span else {
            return file::read_to_end(file, &mut buf, |piece| self.update(piece));
        };
        // Up to a chunk boundary here; then every whole chunk but the last
        // on all threads; then the last chunk (which may end the message,
        // and so must not go through L2 yet) and anything appended since
        // the size was taken, by plain reads.
        let head = (self.stream.bytes_to_chunk_boundary() as u64).min(len);
        file::read_span(file, start, head, &mut buf, |piece| self.update(piece))?;
        let whole = (len - head).saturating_sub(1) / L1_CHUNK as u64 * L1_CHUNK as u64;
        if whole > 0 {
            let l2 =
                self.stream.l2_on_chunk_boundary(&self.key, Self::ITERS).expect("the head ends on a chunk boundary");
            let key = &self.key;
            l1_from_file(&key.l1, Self::ITERS, file, start + head, whole, threads.get(), |outputs| {
                l2.absorb_hashed(&key.l2, Self::ITERS, outputs);
            })?;
        }
        file.seek(SeekFrom::Start(start + head + whole))?;
        let rest = file::read_to_end(file, &mut buf, |piece| self.update(piece))?;
        Ok(head + whole + rest)
    }
}

/// L1-HASH of `len` bytes of `file` from `offset` (whole chunks, none of
/// them the message's last) on up to `threads` threads (this one
/// included), handing the outputs to `absorb` in file order.
fn l1_from_file(
    key: &NhKey,
    iters: usize,
    file: &File,
    offset: u64,
    len: u64,
    threads: usize,
    absorb: impl FnMut(&[L1Output]) + Send,
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
                outputs.extend(piece.chunks_exact(L1_CHUNK).map(|chunk| l1_hash_chunk(key, iters, chunk)));
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
struct InOrder<F> {
    state: Mutex<OrderState>,
    /// Signalled when L2 absorbed a unit or a read failed.
    progress: Condvar,
    /// Held by the thread whose turn it is to absorb (`absorbing`), so
    /// never contended.
    absorb: Mutex<F>,
    units: u64,
    most_ahead: u64,
}

struct OrderState {
    /// The next unit to hand out.
    next: u64,
    /// Units absorbed into L2 so far.
    absorbed: u64,
    /// Finished units waiting for an earlier one.
    finished: BTreeMap<u64, Vec<L1Output>>,
    /// A thread is absorbing finished units.
    absorbing: bool,
    /// Output buffers of absorbed units, for reuse.
    spare: Vec<Vec<L1Output>>,
    /// The first read error; it stops the work.
    error: Option<io::Error>,
    /// Threads waiting on `progress` (a notification costs a system call
    /// even when nobody waits).
    waiting: usize,
}

impl<F: FnMut(&[L1Output])> InOrder<F> {
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
    fn lock(&self) -> MutexGuard<'_, OrderState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next unit to hash and an empty buffer for its outputs; waits
    /// while this thread would be too far ahead of L2. `None` when every
    /// unit is handed out or a read failed.
    fn take_unit(&self) -> Option<(u64, Vec<L1Output>)> {
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
    fn finish_unit(&self, unit: u64, outputs: Vec<L1Output>) {
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

    fn into_result(self) -> io::Result<()> {
        let state = self.state.into_inner().unwrap_or_else(PoisonError::into_inner);
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

    use super::*;
    use crate::umac::Umac64;

    /// The L1 outputs of `data` (whole chunks) from a file, on `threads`
    /// threads, in the order `absorb` received them.
    fn outputs_from_file(
        mac: &Umac64,
        file: &File,
        offset: u64,
        len: u64,
        threads: usize,
    ) -> io::Result<Vec<L1Output>> {
        let mut seen = Vec::new();
        l1_from_file(&mac.key.l1, 2, file, offset, len, threads, |outputs| seen.extend_from_slice(outputs))?;
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
        let mac = Umac64::new(&[9; 16]);
        let offset = L1_CHUNK as u64;
        let len = data.len() as u64 - offset;
        let expected: Vec<L1Output> =
            data[L1_CHUNK..].chunks_exact(L1_CHUNK).map(|c| l1_hash_chunk(&mac.key.l1, 2, c)).collect();
        for threads in [1, 2, 3, 8] {
            assert_eq!(outputs_from_file(&mac, &file, offset, len, threads).unwrap(), expected, "{threads} threads");
        }
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn a_file_shorter_than_its_span_is_an_error() {
        let data = vec![7u8; 3 * UNIT as usize + L1_CHUNK];
        let (path, file) = temp_file("short", &data);
        let mac = Umac64::new(&[9; 16]);
        for threads in [1, 2, 3] {
            let err = outputs_from_file(&mac, &file, 0, 4 * UNIT, threads).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof, "{threads} threads");
            assert!(err.to_string().contains("shrank"), "{err}");
        }
        std::fs::remove_file(path).unwrap();
    }
}
