//! `fastmac`: tag, verify and list MACs from the command line.
//!
//! Exit status: 0 on success (and for a valid tag), 1 for a tag that does
//! not verify, a `check` with a file that failed, or the output of `tag`
//! or `check` lost to a closed stdout; 2 for bad input (with a one-line
//! message on stderr per input).
//!
//! A library, with a thin binary (`main.rs`) on top, so that the fuzz
//! targets (fuzz/fuzz_targets/cli_parse.rs) can reach the argument
//! definitions ([`Cli`]), the input parsers ([`input`]) and the argument
//! checks ([`keyed`]).

mod check;
mod gears;
pub mod input;
pub mod key;
pub mod names;
pub mod numbers;
mod out;
pub mod source;
pub mod sums;

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use fastmac::ssh::{SshAlgorithm, SshMac};
use fastmac::{Algorithm, DynMac, Error};

use input::KeyLength;
use input::{CliError, unhex};
use key::{KeySource, read_key};
use out::outln;
use source::{Input, Reader};
use sums::Position;

/// The command line (`Cli::try_parse_from`).
#[derive(Parser)]
#[command(name = "fastmac", version, about = "Fast, provably secure message authentication")]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands; each variant's doc comment is its `--help` text.
#[derive(Subcommand)]
pub enum Command {
    /// Print the tag of each FILE (stdin when none, or "-") in lowercase
    /// hex: the bare tag for one input; for several, one line per file,
    /// "TAG NONCE  FILE", which `fastmac check` reads back.
    ///
    /// Nonces of several files: file i (from 0, in the order given) is
    /// tagged under --nonce + i, the nonce read as a big-endian number of
    /// its own length (an SSH MAC: --seq + i); the command refuses before
    /// reading any file if the last one would not fit. A nonce must never
    /// repeat under a key: tag the next files under this key from above
    /// the last line's nonce.
    Tag(TagArgs),
    /// Check a tag: exit 0 if valid, 1 if not, 2 on bad input.
    Verify(VerifyArgs),
    /// Verify files against lines as `fastmac tag` prints them: print
    /// "FILE: OK" or "FILE: FAILED" for each; exit 0 if every file is OK, 1
    /// if any failed or could not be read, 2 on a malformed line or bad
    /// input.
    ///
    /// A line is "TAG NONCE  FILE" (the nonce in hex), "TAG  FILE" for an
    /// HMAC, or "TAG SEQ  FILE" for an SSH MAC (the sequence number in
    /// decimal), two spaces before the name.
    Check(CheckArgs),
    /// List the algorithms with their key, nonce and tag lengths and forgery bounds.
    List {
        /// Instead, print the NH backends this CPU runs, one per line,
        /// fastest last: the name (what `FASTMAC_BACKEND` takes), a tab,
        /// and the code Badger's trees run under it.
        #[arg(long)]
        backends: bool,
    },
    /// Measure. With no options: the source papers' tables and charts on
    /// this machine (printed, and written as a report folder). With --algs,
    /// --sizes, --seconds or --json: fastmac against Nettle, OpenSSL's
    /// Poly1305 and AES-128-GMAC, keyed BLAKE3, RustCrypto's HMAC-SHA2-256
    /// and Poly1305, and the read limit.
    Bench(BenchArgs),
    /// Adaptive gears: the gear table and the UDP demonstration on 127.0.0.1.
    #[command(subcommand)]
    Gears(gears::GearsCommand),
}

impl Command {
    /// Whether the command's output is its result, so that output lost to
    /// a closed stdout is a failure (`tag`, `check`), not a reader that
    /// has seen enough (`list | head -1`).
    fn output_is_the_result(&self) -> bool {
        matches!(self, Command::Tag(_) | Command::Check(_))
    }
}

/// The largest message `bench --sizes` takes: 1 GiB (the benchmark holds
/// one message of each size in memory).
const MAX_SIZE: usize = 1 << 30;

/// The most live keys `bench --keys` takes: 2^20 (about 2.5 GB of UMAC-128
/// states).
const MAX_KEYS: usize = 1 << 20;

/// Arguments of `fastmac bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Algorithms to run, comma-separated, in any case: any name `fastmac
    /// list` prints (the SSH names too), poly1305, poly1305/given-key,
    /// aes-128-gmac, aes-128-gmac/gcm128, aegismac-128l, aegismac-128x2,
    /// aegismac-128x4, aegismac-256 (each also with /nonce), blake3-keyed
    /// or read-limit (default: umac-32, umac-64, umac-96, umac-128,
    /// hmac-sha2-256 and all of those). Each is measured in every
    /// implementation there is (fastmac, Nettle, OpenSSL, the aegis and
    /// blake3 crates, RustCrypto).
    #[arg(long, value_delimiter = ',')]
    algs: Vec<String>,
    /// Message sizes in bytes, comma-separated; suffixes K and M (x1024);
    /// 1 byte to 1024M.
    #[arg(long, value_delimiter = ',', value_parser = numbers::size(1, MAX_SIZE))]
    sizes: Vec<usize>,
    /// Measuring time per algorithm and size, in seconds, at most 600
    /// [default: 0.2].
    #[arg(long, value_parser = numbers::decimal(0.0, 600.0))]
    seconds: Option<f64>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// With none of the options above: the papers' tables in about 15 s
    /// instead of 90.
    #[arg(long, conflicts_with_all = ["algs", "sizes", "seconds", "json"])]
    pub quick: bool,
    /// With none of the options above: where to write the report folder
    /// (index.html, one .svg per chart, results.json).
    #[arg(long, value_name = "DIR", default_value = "fastmac-report", conflicts_with_all = ["algs", "sizes", "seconds", "json"])]
    pub out: PathBuf,
    /// Per-packet cost against the number of live keys (one keyed state per
    /// connection, visited in a scattered order): the key counts,
    /// comma-separated, e.g. 1,256,4096,16384,65536; with --sizes (default
    /// 64,1500,32768), --algs (of the MACs this mode measures) and --json.
    #[arg(long, value_delimiter = ',', value_parser = numbers::size(1, MAX_KEYS), conflicts_with = "seconds")]
    keys: Vec<usize>,
}

impl BenchArgs {
    /// No algorithm, size, time or JSON asked for: the papers' report
    /// rather than the comparison table.
    pub fn wants_report(&self) -> bool {
        self.algs.is_empty() && self.sizes.is_empty() && self.seconds.is_none() && !self.json && self.keys.is_empty()
    }
}

/// Where the key comes from: exactly one of the three.
#[derive(Args)]
#[group(required = true, multiple = false)]
pub struct KeyArgs {
    /// Key in hex.
    #[arg(long, value_name = "HEX")]
    pub key: Option<String>,
    /// File holding exactly the key's raw bytes (no hex, no newline), as
    /// `head -c 16 /dev/urandom > FILE` writes one.
    #[arg(long, value_name = "PATH")]
    pub key_file: Option<PathBuf>,
    /// File holding the key in hex; white space around it is ignored.
    #[arg(long, value_name = "PATH")]
    pub key_hex_file: Option<PathBuf>,
}

impl KeyArgs {
    /// The one source given.
    pub fn source(&self) -> Result<KeySource<'_>, CliError> {
        match (&self.key, &self.key_file, &self.key_hex_file) {
            (Some(text), None, None) => Ok(KeySource::Hex(text)),
            (None, Some(path), None) => Ok(KeySource::File(path)),
            (None, None, Some(path)) => Ok(KeySource::HexFile(path)),
            // clap requires exactly one; a library caller gets an error, not a panic.
            _ => Err(CliError::Usage("give the key once: --key HEX, --key-file PATH or --key-hex-file PATH".into())),
        }
    }
}

/// The algorithm, key and threads of `tag`, `verify` and `check`.
#[derive(Args)]
pub struct MacArgs {
    /// Algorithm name, in any case: a name `fastmac list` prints, e.g.
    /// umac-64 or hmac-sha2-256, or an SSH name such as
    /// umac-64-etm@openssh.com (`tag` and `verify` take it with --seq N).
    #[arg(long)]
    pub alg: String,
    /// The key.
    #[command(flatten)]
    pub key: KeyArgs,
    /// Accept an HMAC key shorter than the hash's output (the key length
    /// `fastmac list` gives), even an empty one: weaker (RFC 2104 section
    /// 3), for interoperating with a system that already uses one.
    #[arg(long)]
    pub allow_short_key: bool,
    /// Threads that hash a large file (UMAC, 1 MiB and more): 1 for one
    /// core; by default every CPU this process may run on (1 to 1024).
    #[arg(long, value_name = "N", value_parser = numbers::threads)]
    pub threads: Option<NonZeroUsize>,
}

impl MacArgs {
    /// `--threads`, or every CPU this process may run on (its affinity
    /// mask and CPU quota, as `taskset` and containers set them).
    fn threads(&self) -> NonZeroUsize {
        self.threads.unwrap_or_else(|| std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN))
    }
}

/// The first message's place under the key: a nonce, or an SSH packet
/// sequence number.
#[derive(Args)]
pub struct PositionArgs {
    /// Nonce in hex (UMAC, Badger; HMAC takes none). With several files,
    /// the first file's: see the command's help.
    #[arg(long, value_name = "HEX", conflicts_with = "seq")]
    pub nonce: Option<String>,
    /// SSH packet sequence number: MAC the input as SSH packet number N
    /// under the SSH name given by --alg, exactly as OpenSSH does.
    #[arg(long, value_name = "N", value_parser = numbers::whole(0u32, u32::MAX))]
    pub seq: Option<u32>,
}

/// The arguments of `tag`.
#[derive(Args)]
pub struct TagArgs {
    /// Algorithm, key and threads.
    #[command(flatten)]
    pub mac: MacArgs,
    /// Nonce or sequence number.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Print "TAG NONCE  FILE" lines, as for several files, even for one
    /// (so that a list for `fastmac check` has one form whatever the
    /// number of files).
    #[arg(long)]
    pub names: bool,
    /// Input files; stdin when none, or "-" (once).
    pub files: Vec<PathBuf>,
}

/// The arguments of `verify`.
#[derive(Args)]
pub struct VerifyArgs {
    /// Algorithm, key and threads.
    #[command(flatten)]
    pub mac: MacArgs,
    /// Nonce or sequence number.
    #[command(flatten)]
    pub position: PositionArgs,
    /// The tag to check, in hex.
    #[arg(long, value_name = "HEX")]
    pub tag: String,
    /// Input file; stdin when absent or "-".
    pub file: Option<PathBuf>,
}

/// The arguments of `check`.
#[derive(Args)]
pub struct CheckArgs {
    /// Algorithm, key and threads.
    #[command(flatten)]
    pub mac: MacArgs,
    /// Files of lines as `fastmac tag` prints them; stdin when none, or "-".
    pub lists: Vec<PathBuf>,
}

/// How a command ended, when it ran to its end.
enum Outcome {
    Done,
    /// `verify`: the tag does not verify (status 1).
    TagMismatch,
    /// `check`: some file failed or could not be read (status 1; the lines
    /// say which).
    ChecksFailed,
    /// Some inputs were bad, each reported on stderr; the others were done
    /// (status 2).
    BadInput,
}

/// The binary's `main`: parses `std::env::args`, runs the command, and
/// maps the outcome to the exit status.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let lost_output = if cli.command.output_is_the_result() { ExitCode::from(1) } else { ExitCode::SUCCESS };
    if cli.command.output_is_the_result() && source::was_closed(&std::io::stdout()) {
        out::warn("fastmac: error: cannot write stdout: it is closed, and the result would be lost");
        return lost_output;
    }
    match run(cli) {
        Ok(Outcome::Done) => ExitCode::SUCCESS,
        // The reader stopped reading (`| head -1`): quiet, as coreutils are.
        Err(CliError::StdoutClosed) => lost_output,
        Ok(Outcome::TagMismatch) => {
            out::warn("fastmac: tag does not verify");
            ExitCode::from(1)
        }
        Ok(Outcome::ChecksFailed) => ExitCode::from(1),
        Ok(Outcome::BadInput) => ExitCode::from(2),
        Err(err) => {
            out::warn(&format!("fastmac: error: {err}"));
            ExitCode::from(2)
        }
    }
}

/// `FASTMAC_BACKEND` (`portable`, `sse2`, `avx2`, `avx512`, `neon`) forces
/// the NH backend of every MAC the tool keys; the library reads no
/// environment, the tool passes the choice on. An unknown value, or one this
/// CPU cannot run, is an error rather than silently replaced.
pub fn apply_backend_env() -> Result<(), fastmac::Error> {
    use fastmac::umac::Backend;
    let Some(value) = std::env::var_os("FASTMAC_BACKEND") else { return Ok(()) };
    match value.to_string_lossy().trim() {
        "" => Ok(()),
        name => Backend::set_default(Some(Backend::from_name(name)?)),
    }
}

fn run(cli: Cli) -> Result<Outcome, CliError> {
    apply_backend_env()?;
    match cli.command {
        Command::Tag(args) => tag(&args),
        Command::Verify(args) => verify(&args),
        Command::Check(args) => check::run(&args),
        Command::Bench(args) => {
            bench(&args)?;
            Ok(Outcome::Done)
        }
        Command::Gears(command) => {
            gears::run(command)?;
            Ok(Outcome::Done)
        }
        Command::List { backends: true } => {
            list_backends()?;
            Ok(Outcome::Done)
        }
        Command::List { backends: false } => {
            list()?;
            Ok(Outcome::Done)
        }
    }
}

/// `fastmac bench`: the report ([`fastmac_report::report`]), the
/// comparison table or JSON run ([`fastmac_report::bench`]), or the
/// many-keys run (`--keys`).
fn bench(args: &BenchArgs) -> Result<(), CliError> {
    if args.wants_report() {
        let written = fastmac_report::report::run(args.quick, &args.out)?;
        out::print(&written.text)?;
        out::warn(&written.summary());
        return Ok(());
    }
    let text = if args.keys.is_empty() {
        let known = fastmac_report::bench::algorithms();
        let algs = chosen_names(&args.algs, &known, "benchmark algorithm")?;
        let what = fastmac_report::bench::Comparison {
            algs: &algs,
            sizes: &args.sizes,
            seconds: args.seconds,
            json: args.json,
        };
        fastmac_report::bench::compare(&what)?
    } else {
        let known = fastmac_report::bench::KEYS_ALGORITHMS;
        let algs = chosen_names(&args.algs, known, "benchmark algorithm with --keys")?;
        fastmac_report::bench::many_keys(&algs, &args.keys, &args.sizes, args.json)?
    };
    out::print(&text)
}

/// The `--algs` names as `known` spells them (any case), or the error that
/// names the first unknown one (a `what`) and suggests the nearest.
fn chosen_names<'a>(algs: &[String], known: &[&'a str], what: &str) -> Result<Vec<&'a str>, CliError> {
    algs.iter()
        .map(|alg| {
            known
                .iter()
                .copied()
                .find(|k| k.eq_ignore_ascii_case(alg))
                .ok_or_else(|| names::unknown(what, alg, known.iter().copied()))
        })
        .collect()
}

/// The inputs FILE operands name (the files of `tag`, the lists of
/// `check`): stdin when there are none; stdin at most once.
fn inputs(files: &[PathBuf]) -> Result<Vec<Input>, CliError> {
    if files.is_empty() {
        return Ok(vec![Input::Stdin]);
    }
    let inputs: Vec<Input> = files.iter().map(|f| Input::from_operand(f)).collect();
    if inputs.iter().filter(|i| **i == Input::Stdin).count() > 1 {
        return Err(CliError::Usage("stdin (\"-\") can be read once: give it at most once".into()));
    }
    Ok(inputs)
}

fn tag(args: &TagArgs) -> Result<Outcome, CliError> {
    let inputs = inputs(&args.files)?;
    let (mut mac, first) = keyed(&args.mac, &args.position)?;
    let positions = first.series(inputs.len())?;
    let lines = args.names || inputs.len() > 1;
    let reader = Reader::new(args.mac.threads());
    let mut bad = false;
    for (input, position) in inputs.iter().zip(&positions) {
        match mac.tag(&reader, input, position) {
            Ok(tag) if lines => out::print_bytes(&sums::format_line(&tag, position, input.name()))?,
            Ok(tag) => outln!("{}", hex::encode(tag))?,
            Err(err) => {
                out::warn(&format!("fastmac: error: {err}"));
                bad = true;
            }
        }
    }
    Ok(if bad { Outcome::BadInput } else { Outcome::Done })
}

fn verify(args: &VerifyArgs) -> Result<Outcome, CliError> {
    let (mut mac, position) = keyed(&args.mac, &args.position)?;
    let tag = unhex("tag", &args.tag)?;
    let input = args.file.as_deref().map_or(Input::Stdin, Input::from_operand);
    let reader = Reader::new(args.mac.threads());
    Ok(if mac.verify(&reader, &input, &position, &tag)? { Outcome::Done } else { Outcome::TagMismatch })
}

fn list_backends() -> Result<(), CliError> {
    for backend in fastmac::umac::Backend::supported() {
        outln!("{backend}\tbadger: {}", backend.badger_trees())?;
    }
    Ok(())
}

fn list() -> Result<(), CliError> {
    outln!("{:<14} {:>9} {:>11} {:>9}  forgery bound", "algorithm", "key (B)", "nonce (B)", "tag (B)")?;
    for alg in Algorithm::ALL {
        let info = alg.info();
        let nonce = if info.min_nonce_len == info.max_nonce_len {
            info.min_nonce_len.to_string()
        } else {
            format!("{}-{}", info.min_nonce_len, info.max_nonce_len)
        };
        outln!(
            "{:<14} {:>9} {:>11} {:>9}  2^{} per attempt ({})",
            info.name,
            info.key_len,
            nonce,
            info.tag_len,
            info.forgery_bound_log2,
            info.bound_source
        )?;
    }
    outln!()?;
    outln!("SSH MACs, as OpenSSH computes them (use --seq N in place of --nonce):")?;
    outln!("{:<31} {:>9} {:>9}  input", "ssh name", "key (B)", "tag (B)")?;
    for alg in fastmac::ssh::ALGORITHMS {
        let input = if alg.etm { "uint32 length || ciphertext (etm)" } else { "packet" };
        outln!("{:<31} {:>9} {:>9}  {input}", alg.name, alg.key_len, alg.tag_len)?;
    }
    Ok(())
}

/// The MAC an `--alg` names, before it is keyed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MacKind {
    /// A MAC of the library's registry (`fastmac list`'s first table).
    Plain(Algorithm),
    /// An SSH MAC (its second table).
    Ssh(&'static SshAlgorithm),
}

impl MacKind {
    /// The MAC of `tag` and `verify`: an SSH name with `--seq`, a
    /// library name without; any ASCII case.
    pub fn resolve(name: &str, with_seq: bool) -> Result<MacKind, CliError> {
        if with_seq {
            if let Some(alg) = names::ssh(name) {
                return Ok(MacKind::Ssh(alg));
            }
            if let Some(alg) = names::plain(name) {
                let plain = alg.info().name;
                let forms: Vec<&str> = names::ssh_names()
                    .filter(|n| n.strip_prefix(plain).is_some_and(|rest| rest.starts_with(['@', '-'])))
                    .collect();
                let hint = if forms.is_empty() {
                    "it has no SSH form: drop --seq".to_owned()
                } else {
                    format!("its SSH names are {}", forms.join(" and "))
                };
                return Err(CliError::Usage(format!("{plain} is not an SSH MAC name, and --seq takes one: {hint}")));
            }
            return Err(names::unknown("SSH MAC", name, names::ssh_names()));
        }
        if let Some(alg) = names::plain(name) {
            return Ok(MacKind::Plain(alg));
        }
        if let Some(alg) = names::ssh(name) {
            return Err(needs_seq(alg));
        }
        Err(names::unknown("algorithm", name, names::plain_names().chain(names::ssh_names())))
    }

    /// The algorithm's name as `fastmac list` prints it.
    pub fn name(self) -> &'static str {
        match self {
            MacKind::Plain(alg) => alg.info().name,
            MacKind::Ssh(alg) => alg.name,
        }
    }

    /// Whether this is an HMAC of the registry: the only MACs without a
    /// nonce, and the only ones whose key may have any length.
    fn is_hmac(self) -> bool {
        matches!(self, MacKind::Plain(alg) if alg.info().max_nonce_len == 0)
    }

    /// The key lengths it takes; `--allow-short-key` is for HMAC only.
    pub fn key_length(self, allow_short_key: bool) -> Result<KeyLength, CliError> {
        match self {
            MacKind::Plain(alg) if self.is_hmac() => {
                Ok(if allow_short_key { KeyLength::Any } else { KeyLength::AtLeast(alg.info().key_len) })
            }
            _ if allow_short_key => Err(CliError::Usage(format!(
                "--allow-short-key is for HMAC keys; {} takes a key of exactly {} bytes",
                self.name(),
                self.exact_key_len()
            ))),
            _ => Ok(KeyLength::Exactly(self.exact_key_len())),
        }
    }

    fn exact_key_len(self) -> usize {
        match self {
            MacKind::Plain(alg) => alg.info().key_len,
            MacKind::Ssh(alg) => alg.key_len,
        }
    }

    /// The first message's position from `--nonce` or `--seq`, checked
    /// against the algorithm's nonce lengths.
    fn first_position(self, args: &PositionArgs) -> Result<Position, CliError> {
        let info = match self {
            MacKind::Ssh(alg) => return args.seq.map(Position::Seq).ok_or_else(|| needs_seq(alg)),
            MacKind::Plain(alg) => alg.info(),
        };
        let nonce = match &args.nonce {
            Some(_) if info.max_nonce_len == 0 => {
                return Err(CliError::Usage(format!(
                    "wrong nonce length: {} takes no nonce (HMAC has none); drop --nonce",
                    info.name
                )));
            }
            Some(text) => unhex("nonce", text)?,
            None if info.max_nonce_len == 0 => return Ok(Position::Unused),
            None => return Err(CliError::Usage(format!("{} needs a nonce: --nonce HEX", info.name))),
        };
        self.check_nonce(&nonce)?;
        Ok(Position::Nonce(nonce))
    }

    /// An error unless the algorithm takes a nonce of this length.
    pub fn check_nonce(self, nonce: &[u8]) -> Result<(), CliError> {
        let MacKind::Plain(alg) = self else { return Ok(()) };
        let info = alg.info();
        if (info.min_nonce_len..=info.max_nonce_len).contains(&nonce.len()) {
            Ok(())
        } else {
            Err(Error::NonceLength { min: info.min_nonce_len, max: info.max_nonce_len, got: nonce.len() }.into())
        }
    }

    /// Keys it.
    pub fn new_mac(self, key: &[u8]) -> Result<KeyedMac, CliError> {
        Ok(match self {
            MacKind::Plain(alg) => KeyedMac::Plain(alg.new_mac(key)?),
            MacKind::Ssh(alg) => KeyedMac::Ssh(Box::new(SshMac::new(alg.name, key)?)),
        })
    }
}

/// The error for an SSH name without `--seq`.
fn needs_seq(alg: &SshAlgorithm) -> CliError {
    CliError::Usage(format!("{} is an SSH MAC: give the packet sequence number with --seq N", alg.name))
}

/// A keyed MAC of the command line.
pub enum KeyedMac {
    /// A MAC of the library's registry; its messages take a nonce (none
    /// for HMAC).
    Plain(Box<dyn DynMac>),
    /// An SSH MAC (boxed: it holds the keys of UMAC-128, about 4 KiB);
    /// its messages take a sequence number.
    Ssh(Box<SshMac>),
}

impl KeyedMac {
    /// The tag length in bytes.
    pub fn tag_len(&self) -> usize {
        match self {
            KeyedMac::Plain(mac) => mac.tag_len(),
            KeyedMac::Ssh(mac) => mac.tag_len(),
        }
    }

    /// The tag of `input` as the message at `position`.
    pub fn tag(&mut self, reader: &Reader, input: &Input, position: &Position) -> Result<Vec<u8>, CliError> {
        match self {
            KeyedMac::Plain(mac) => {
                if let Err(err) = reader.feed(input, mac.as_mut()) {
                    mac.reset();
                    return Err(err);
                }
                let mut tag = vec![0u8; mac.tag_len()];
                mac.finalize_reset_into(position.nonce(), &mut tag)?;
                Ok(tag)
            }
            KeyedMac::Ssh(mac) => {
                let mut stream = mac.start(sequence_number(position)?);
                reader.feed(input, &mut stream)?;
                Ok(stream.finish().to_vec())
            }
        }
    }

    /// Whether `tag` is the tag of `input` as the message at `position`,
    /// compared in constant time; a tag of the wrong length is an error.
    pub fn verify(
        &mut self,
        reader: &Reader,
        input: &Input,
        position: &Position,
        tag: &[u8],
    ) -> Result<bool, CliError> {
        if tag.len() != self.tag_len() {
            return Err(Error::TagLength { expected: self.tag_len(), got: tag.len() }.into());
        }
        let verdict = match self {
            KeyedMac::Plain(mac) => {
                if let Err(err) = reader.feed(input, mac.as_mut()) {
                    mac.reset();
                    return Err(err);
                }
                mac.verify_reset(position.nonce(), tag)
            }
            KeyedMac::Ssh(mac) => {
                let mut stream = mac.start(sequence_number(position)?);
                reader.feed(input, &mut stream)?;
                stream.verify(tag)
            }
        };
        match verdict {
            Ok(()) => Ok(true),
            Err(Error::InvalidTag) => Ok(false),
            Err(err) => Err(err.into()),
        }
    }
}

/// An SSH MAC's position: its sequence number.
fn sequence_number(position: &Position) -> Result<u32, CliError> {
    match position {
        Position::Seq(seq) => Ok(*seq),
        _ => Err(CliError::Usage("an SSH MAC takes a packet sequence number, not a nonce".into())),
    }
}

/// The keyed MAC of `tag` and `verify` and its first message's position,
/// checked before any input is read: the name, then the nonce or sequence
/// number, then the key.
pub fn keyed(mac: &MacArgs, position: &PositionArgs) -> Result<(KeyedMac, Position), CliError> {
    let kind = MacKind::resolve(&mac.alg, position.seq.is_some())?;
    let first = kind.first_position(position)?;
    let length = kind.key_length(mac.allow_short_key)?;
    let key = read_key(mac.key.source()?, length)?;
    Ok((kind.new_mac(&key)?, first))
}

// The repository README's and docs/usage.md's Rust examples, compiled and run
// as doc tests here: the fastmac crate's own front page is
// crates/fastmac/README.md, and the published package holds no file outside
// its folder.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

#[doc = include_str!("../../../docs/usage.md")]
#[cfg(doctest)]
pub struct UsageDoctests;
