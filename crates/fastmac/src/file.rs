//! Reading a file into a MAC the way fast hashing tools read one (feature
//! `std`): plain `read` calls into one page-aligned buffer small enough to
//! stay in the core's L2 cache, so that the kernel's copy out of the page
//! cache lands where the MAC reads it next. No memory mapping: a mapped
//! file that another process truncates or rewrites is undefined behaviour,
//! and a safe read costs only the copy (docs/performance.md, "Tagging files").
//!
//! [`crate::DynMac::update_from_file`] is the public entry; UMAC's
//! multi-threaded version (feature `parallel`) is in `umac::parallel_file`
//! and uses the positioned reads here.

use std::fs::File;
use std::io::{self, Read};

/// Bytes per read: 128 KiB, as `cat` reads. The kernel's copy and the
/// MAC's pass over it then both stay in a 512 KiB L2 cache; larger pieces
/// measured slower (docs/performance.md, "Tagging files").
const PIECE: usize = 128 << 10;

/// Alignment of the read buffer: a page, so the kernel copies whole pages
/// to page boundaries.
const PAGE: usize = 4096;

/// A page-aligned buffer of [`PIECE`] bytes.
pub(crate) struct ReadBuf {
    bytes: Vec<u8>,
    start: usize,
}

impl ReadBuf {
    pub(crate) fn new() -> Self {
        let bytes = vec![0u8; PIECE + PAGE];
        let start = bytes.as_ptr().align_offset(PAGE).min(PAGE);
        ReadBuf { bytes, start }
    }

    /// The aligned [`PIECE`] bytes.
    pub(crate) fn piece(&mut self) -> &mut [u8] {
        &mut self.bytes[self.start..self.start + PIECE]
    }
}

/// Where a regular file's unread bytes are: from the current position to
/// the size it has now. `None` for anything else (a pipe, a terminal, a
/// character device), which can only be read in order.
#[cfg(feature = "parallel")]
pub(crate) fn unread_span(file: &mut File) -> io::Result<Option<(u64, u64)>> {
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Ok(None);
    }
    let start = io::Seek::stream_position(file)?;
    Ok(Some((start, meta.len().saturating_sub(start))))
}

/// Feeds `file` from its current position to its end to `sink`, one read
/// at a time, and returns the number of bytes read. A file that grows while
/// being read is read to the end its last read found.
pub(crate) fn read_to_end(file: &mut File, buf: &mut ReadBuf, mut sink: impl FnMut(&[u8])) -> io::Result<u64> {
    let piece = buf.piece();
    let mut total = 0u64;
    loop {
        match file.read(piece) {
            Ok(0) => return Ok(total),
            Ok(n) => {
                sink(&piece[..n]);
                total += n as u64;
            }
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
}

/// Feeds `len` bytes of `file` from `offset` to `sink` in pieces of at
/// most [`PIECE`] bytes, with positioned reads (the file position is
/// neither used nor moved, so several threads can read one file).
#[cfg(feature = "parallel")]
pub(crate) fn read_span(
    file: &File,
    offset: u64,
    len: u64,
    buf: &mut ReadBuf,
    mut sink: impl FnMut(&[u8]),
) -> io::Result<()> {
    let piece = buf.piece();
    let mut done = 0u64;
    while done < len {
        let want = usize::try_from(len - done).map_or(PIECE, |rest| rest.min(PIECE));
        read_exact_at(file, &mut piece[..want], offset + done)?;
        sink(&piece[..want]);
        done += want as u64;
    }
    Ok(())
}

/// Fills `buf` from `offset`; a file that ends first shrank after its size
/// was taken: an error of kind `UnexpectedEof` that says so.
#[cfg(feature = "parallel")]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    let mut filled = 0;
    while filled < buf.len() {
        let at = offset + filled as u64;
        match read_at(file, &mut buf[filled..], at) {
            Ok(0) => return Err(shrank(at)),
            Ok(n) => filled += n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    Ok(())
}

/// The error of a file that ends at byte `at`, before the size it had when
/// reading began.
#[cfg(feature = "parallel")]
pub(crate) fn shrank(at: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        format!("the file shrank while being read: it ends at byte {at}, before its size when reading began"),
    )
}

#[cfg(all(feature = "parallel", unix))]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

// Windows' positioned read moves the file position too; callers that read
// on after it seek first (`umac::parallel_file`).
#[cfg(all(feature = "parallel", windows))]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Seek, SeekFrom, Write};

    fn temp_file(name: &str, contents: &[u8]) -> (std::path::PathBuf, File) {
        let path = std::env::temp_dir().join(format!("fastmac-file-{name}-{}", std::process::id()));
        std::fs::File::create(&path).unwrap().write_all(contents).unwrap();
        let file = File::open(&path).unwrap();
        (path, file)
    }

    #[test]
    fn the_buffer_is_page_aligned() {
        let mut buf = ReadBuf::new();
        let piece = buf.piece();
        assert_eq!(piece.len(), PIECE);
        assert_eq!(piece.as_ptr().align_offset(PAGE), 0);
    }

    #[test]
    fn reads_to_the_end_from_the_current_position() {
        let data: Vec<u8> = (0..2 * PIECE + 5).map(|i| (i * 7) as u8).collect();
        let (path, mut file) = temp_file("to-end", &data);
        file.seek(SeekFrom::Start(10)).unwrap();
        let mut seen = Vec::new();
        let n = read_to_end(&mut file, &mut ReadBuf::new(), |p| seen.extend_from_slice(p)).unwrap();
        assert_eq!((n, &seen[..]), (data.len() as u64 - 10, &data[10..]));
        std::fs::remove_file(path).unwrap();
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn spans_from_the_current_position_leave_it_alone() {
        let data: Vec<u8> = (0..3 * PIECE + 5).map(|i| (i * 7) as u8).collect();
        let (path, mut file) = temp_file("span", &data);
        file.seek(SeekFrom::Start(10)).unwrap();
        assert_eq!(unread_span(&mut file).unwrap(), Some((10, data.len() as u64 - 10)));
        let mut seen = Vec::new();
        read_span(&file, 10, 2 * PIECE as u64 + 1, &mut ReadBuf::new(), |p| seen.extend_from_slice(p)).unwrap();
        assert_eq!(seen, data[10..10 + 2 * PIECE + 1]);
        assert_eq!(file.stream_position().unwrap(), 10);
        std::fs::remove_file(path).unwrap();
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn a_span_past_the_end_is_a_shrunk_file() {
        let (path, file) = temp_file("short", &[1u8; 1000]);
        let err = read_span(&file, 0, 1001, &mut ReadBuf::new(), |_| {}).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        assert!(err.to_string().contains("shrank"), "{err}");
        assert!(err.to_string().contains("byte 1000"), "{err}");
        std::fs::remove_file(path).unwrap();
    }
}
