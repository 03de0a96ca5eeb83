//! The messages of `tag`, `verify` and `check`: files and stdin, each
//! mapped into memory or read, and hashed on the threads `--threads` asks
//! for.
//!
//! * A regular file (stdin too, when it is one) of at least [`MAP_MIN`]
//!   unread bytes is mapped (`memmap2`, as `b3sum` does) and hashed as one
//!   slice through the library's in-memory API: no copy out of the page
//!   cache, and UMAC hashes a slice of [`fastmac::umac::PARALLEL_MIN`] or
//!   more on every thread of the pool it runs in.
//! * Pipes, terminals, character devices, smaller files, and any file the
//!   system will not map are read ([`fastmac::DynMac::update_from_file`]).
//!
//! A mapped file is the bytes it had up to its size when opened. If
//! another process truncates it while it is hashed, the next page read
//! past the new end raises `SIGBUS`, which ends the process (status 135 in
//! a shell, 128 + 7) before any tag is printed; bytes rewritten meanwhile
//! are hashed as they are read, as with `read`. docs/cli.md section 6 says
//! so for users.

use std::cell::OnceCell;
use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Seek, SeekFrom};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

use fastmac::DynMac;

use crate::input::CliError;

/// Unread bytes from which a regular file is mapped rather than read:
/// below it, mapping, faulting the pages in and unmapping cost as much as
/// the copy of a read saves or more (docs/performance.md, "Tagging files").
pub const MAP_MIN: u64 = 512 << 10;

/// One message to hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Standard input (no FILE, or `-`).
    Stdin,
    /// A named file.
    File(PathBuf),
}

impl Input {
    /// The input a FILE operand names: `-` is stdin.
    pub fn from_operand(path: &Path) -> Input {
        if path == Path::new("-") { Input::Stdin } else { Input::File(path.to_owned()) }
    }

    /// The name a line of `tag` shows: `-` for stdin.
    pub fn name(&self) -> &OsStr {
        match self {
            Input::Stdin => OsStr::new("-"),
            Input::File(path) => path.as_os_str(),
        }
    }

    /// How messages name it.
    pub fn describe(&self) -> String {
        match self {
            Input::Stdin => "stdin".to_owned(),
            Input::File(path) => path.display().to_string(),
        }
    }

    /// Opens it; a closed stdin is an error.
    pub(crate) fn open(&self) -> io::Result<File> {
        match self {
            Input::File(path) => File::open(path),
            Input::Stdin if was_closed(&io::stdin()) => {
                Err(io::Error::other("it is closed: give a FILE, or < /dev/null for the empty message"))
            }
            Input::Stdin => stdin_file(),
        }
    }
}

/// Hashes inputs on up to `threads` threads; the thread pool is started
/// on the first input large enough to use it.
pub struct Reader {
    threads: NonZeroUsize,
    pool: OnceCell<rayon::ThreadPool>,
}

impl Reader {
    /// A reader for `--threads N`.
    pub fn new(threads: NonZeroUsize) -> Reader {
        Reader { threads, pool: OnceCell::new() }
    }

    /// Streams all of `input` (from its current position, for stdin) into
    /// `mac`. After an error the MAC holds part of the message: the caller
    /// discards it (`DynMac::reset`) before the next.
    pub fn feed(&self, input: &Input, mac: &mut dyn DynMac) -> Result<(), CliError> {
        let failed = |source| CliError::Io { what: input.describe(), source };
        let mut file = input.open().map_err(failed)?;
        match map(&mut file).map_err(failed)? {
            Some(mapped) => {
                self.hash_slice(&mapped.bytes, mac)?;
                #[cfg(unix)]
                self.release(&mapped);
                // Leave the file position where reading it would have (a
                // shared stdin's next reader starts after the message).
                file.seek(SeekFrom::Start(mapped.end)).map(drop).map_err(failed)
            }
            None => mac.update_from_file(&mut file, self.threads).map(drop).map_err(failed),
        }
    }

    /// Hashes one slice: on the pool when UMAC would use more than one
    /// thread for it (the library decides by the pool it runs in), else
    /// here.
    fn hash_slice(&self, bytes: &[u8], mac: &mut dyn DynMac) -> Result<(), CliError> {
        if bytes.len() < fastmac::umac::PARALLEL_MIN {
            mac.update(bytes);
            return Ok(());
        }
        let pool = match self.pool.get() {
            Some(pool) => pool,
            None => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(self.threads.get())
                    .thread_name(|i| format!("fastmac-hash-{i}"))
                    .build()
                    .map_err(|err| CliError::Usage(format!("cannot start {} threads: {err}", self.threads)))?;
                self.pool.get_or_init(|| pool)
            }
        };
        pool.install(|| mac.update(bytes));
        Ok(())
    }

    /// Drops a hashed map's pages from this process's page tables, each
    /// thread of the pool its share, before the map is unmapped: unmapping
    /// then finds no pages left to release, which it would do on one
    /// thread (docs/performance.md, "Tagging files"). The pages stay in the page
    /// cache.
    #[cfg(unix)]
    fn release(&self, mapped: &Mapped) {
        use rayon::prelude::*;
        let Some(pool) = self.pool.get().filter(|pool| pool.current_num_threads() > 1) else { return };
        let len = mapped.bytes.len();
        let share = len.div_ceil(pool.current_num_threads());
        let release = |start: usize| {
            // SAFETY: the map is read-only and shared, so MADV_DONTNEED only
            // drops its page-table entries: a later read would fault the
            // file's pages back in, and nothing is lost. Nothing reads the
            // map after this. A failure leaves the pages to the unmap.
            #[allow(unsafe_code)]
            let _ = unsafe {
                mapped.bytes.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, share.min(len - start))
            };
        };
        pool.install(|| (0..len).into_par_iter().step_by(share).for_each(release));
    }
}

/// A file's unread bytes, mapped.
struct Mapped {
    bytes: memmap2::Mmap,
    /// The file offset just past them.
    end: u64,
}

/// Maps the unread bytes of a regular file of at least [`MAP_MIN`] of
/// them; `None` for anything else, and for a file the system does not
/// map (it is read instead).
fn map(file: &mut File) -> io::Result<Option<Mapped>> {
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Ok(None);
    }
    let start = file.stream_position()?;
    let unread = meta.len().saturating_sub(start);
    let Ok(len) = usize::try_from(unread) else { return Ok(None) };
    if unread < MAP_MIN {
        return Ok(None);
    }
    // SAFETY: the map is read-only and lives only while this process
    // hashes it. Another process may still truncate or rewrite the file
    // meanwhile; a truncation makes the next read of a page past the new
    // end raise SIGBUS, which ends the process before any tag is printed,
    // and rewritten bytes are hashed as read, as with read(2) (module docs,
    // docs/cli.md section 6). Nothing here relies on the bytes staying the same.
    #[allow(unsafe_code)]
    let bytes = unsafe { memmap2::MmapOptions::new().offset(start).len(len).map(&*file) };
    Ok(bytes.ok().map(|bytes| Mapped { bytes, end: start + unread }))
}

/// Stdin as a file of its own (the same open file, so its position moves
/// as the input is read): a regular file redirected to stdin is then
/// mapped or read like a named one.
#[cfg(unix)]
fn stdin_file() -> io::Result<File> {
    use std::os::fd::AsFd;
    Ok(File::from(io::stdin().as_fd().try_clone_to_owned()?))
}

#[cfg(windows)]
fn stdin_file() -> io::Result<File> {
    use std::os::windows::io::AsHandle;
    Ok(File::from(io::stdin().as_handle().try_clone_to_owned()?))
}

/// Whether a standard stream (stdin, stdout) was closed when the process
/// started. Rust's runtime reopens a closed standard stream on /dev/null for
/// reading and writing before `main`, so that is what a closed one looks
/// like here; a shell's `< /dev/null` or `> /dev/null` opens it in one
/// direction only and is the empty message, or output thrown away.
/// (Python's `subprocess.DEVNULL` opens it for both, and looks closed too:
/// docs/cli.md section 1.)
#[cfg(unix)]
pub(crate) fn was_closed(stream: &impl std::os::fd::AsFd) -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let stream = stream.as_fd();
    let Ok(flags) = rustix::fs::fcntl_getfl(stream) else { return true };
    if flags & rustix::fs::OFlags::RWMODE != rustix::fs::OFlags::RDWR {
        return false;
    }
    let ours = stream.try_clone_to_owned().map(File::from).and_then(|file| file.metadata());
    let (Ok(ours), Ok(null)) = (ours, std::fs::metadata("/dev/null")) else {
        return false;
    };
    ours.file_type().is_char_device() && ours.rdev() == null.rdev()
}

#[cfg(not(unix))]
pub(crate) fn was_closed<T>(_stream: &T) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn temp_file(name: &str, contents: &[u8]) -> (PathBuf, File) {
        let path = std::env::temp_dir().join(format!("fastmac-source-{name}-{}", std::process::id()));
        File::create(&path).unwrap().write_all(contents).unwrap();
        let file = File::open(&path).unwrap();
        (path, file)
    }

    #[test]
    fn regular_files_from_map_min_are_mapped_from_their_position() {
        let data: Vec<u8> = (0..MAP_MIN as usize + 5000).map(|i| (i * 7 + i / 251) as u8).collect();
        let (path, mut file) = temp_file("map", &data);
        file.seek(SeekFrom::Start(3)).unwrap();
        let mapped = map(&mut file).unwrap().expect("mapped");
        assert_eq!((&mapped.bytes[..], mapped.end), (&data[3..], data.len() as u64));
        // One byte short of MAP_MIN unread: read instead.
        file.seek(SeekFrom::Start(5001)).unwrap();
        assert!(map(&mut file).unwrap().is_none());
        std::fs::remove_file(path).unwrap();
        let mut dev_zero = File::open("/dev/zero").unwrap();
        assert!(map(&mut dev_zero).unwrap().is_none(), "a character device is read");
    }

    #[test]
    fn mapped_and_read_inputs_give_the_same_tag_on_any_thread_count() {
        let data: Vec<u8> = (0..3 << 20).map(|i: usize| (i ^ (i >> 9)) as u8).collect();
        let (path, _) = temp_file("same", &data);
        let input = Input::File(path.clone());
        let key = [3u8; 16];
        let expected = fastmac::umac::Umac64::new(&key).mac(b"n", &data).unwrap();
        for threads in [1, 2, 3] {
            let reader = Reader::new(NonZeroUsize::new(threads).unwrap());
            let mut mac = fastmac::Algorithm::Umac64.new_mac(&key).unwrap();
            reader.feed(&input, mac.as_mut()).unwrap();
            let mut tag = [0u8; 8];
            mac.finalize_reset_into(b"n", &mut tag).unwrap();
            assert_eq!(tag, expected, "{threads} threads");
        }
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn operands_and_names() {
        assert_eq!(Input::from_operand(Path::new("-")), Input::Stdin);
        assert_eq!(Input::from_operand(Path::new("./-")), Input::File("./-".into()));
        assert_eq!(Input::Stdin.name(), "-");
        assert_eq!(Input::File("a b".into()).describe(), "a b");
    }
}
