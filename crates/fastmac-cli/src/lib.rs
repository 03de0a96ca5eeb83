//! `fastmac`: tag, verify and list MACs from the command line.
//!
//! Exit status: 0 on success (and for a valid tag), 1 for a tag that does
//! not verify, 2 for bad input (with a one-line message on stderr).
//!
//! A library, with a thin binary (`main.rs`) on top, so that the fuzz
//! targets (fuzz/fuzz_targets/cli_parse.rs) can reach the argument
//! definitions ([`Cli`]), the input parsers ([`input`]) and the argument
//! checks ([`keyed`]).

mod bench;
mod chart;
mod gears;
pub mod input;
mod measure;
mod out;
mod report;

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use fastmac::ssh::{self, SshAlgorithm, SshMac};
use fastmac::{Algorithm, DynMac, Error};
use zeroize::Zeroizing;

use input::{CliError, read_key, stream_into, unhex};
use out::outln;

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
    /// Print the tag of a file (or stdin) in lowercase hex.
    Tag(MacArgs),
    /// Check a tag: exit 0 if valid, 1 if not, 2 on bad input.
    Verify {
        /// The algorithm, key, nonce and input.
        #[command(flatten)]
        mac: MacArgs,
        /// The tag to check, in hex.
        #[arg(long)]
        tag: String,
    },
    /// List the algorithms with their key, nonce and tag lengths and forgery bounds.
    List {
        /// Instead, print the NH backends this CPU runs, one name per line,
        /// fastest last (the names `FASTMAC_BACKEND` takes).
        #[arg(long)]
        backends: bool,
    },
    /// Measure. With no options: the source papers' tables and charts on
    /// this machine (printed, and written as a report folder). With --algs,
    /// --sizes, --seconds or --json: fastmac against Nettle, OpenSSL's
    /// Poly1305 and AES-128-GMAC, keyed BLAKE3, RustCrypto's HMAC-SHA2-256
    /// and Poly1305, and the read limit.
    Bench(bench::BenchArgs),
    /// Adaptive gears: the gear table and the UDP demonstration on 127.0.0.1.
    #[command(subcommand)]
    Gears(gears::GearsCommand),
}

/// The arguments of `tag` and `verify`.
#[derive(Args)]
pub struct MacArgs {
    /// Algorithm name, e.g. umac-64, hmac-sha2-256, or with --seq an SSH
    /// name such as umac-64-etm@openssh.com (see `fastmac list`).
    #[arg(long)]
    pub alg: String,
    /// Key in hex.
    #[arg(long, conflicts_with = "key_file", required_unless_present = "key_file")]
    pub key: Option<String>,
    /// File holding the key: raw bytes of the key's length, or hex text.
    #[arg(long)]
    pub key_file: Option<std::path::PathBuf>,
    /// Nonce in hex (UMAC; HMAC takes none).
    #[arg(long, conflicts_with = "seq")]
    pub nonce: Option<String>,
    /// SSH packet sequence number: MAC the input as SSH packet number N
    /// under the SSH name given by --alg, exactly as OpenSSH does.
    #[arg(long, value_name = "N")]
    pub seq: Option<u32>,
    /// Threads that hash a large file (UMAC, 1 MiB and more): 1 for one
    /// core; by default every CPU this process may run on.
    #[arg(long, value_name = "N")]
    pub threads: Option<std::num::NonZeroUsize>,
    /// Input file; stdin when absent or "-".
    pub file: Option<std::path::PathBuf>,
}

impl MacArgs {
    /// `--threads`, or every CPU this process may run on (its affinity
    /// mask and CPU quota, as `taskset` and containers set them).
    fn threads(&self) -> std::num::NonZeroUsize {
        self.threads.unwrap_or_else(|| std::thread::available_parallelism().unwrap_or(std::num::NonZeroUsize::MIN))
    }
}

enum Outcome {
    Done,
    TagMismatch,
}

/// The binary's `main`: parses `std::env::args`, runs the command, and
/// maps the outcome to the exit status.
pub fn main() -> ExitCode {
    match run(Cli::parse()) {
        // A reader that stopped reading (`| head -1`) is not an error.
        Ok(Outcome::Done) | Err(CliError::StdoutClosed) => ExitCode::SUCCESS,
        Ok(Outcome::TagMismatch) => {
            out::warn("fastmac: tag does not verify");
            ExitCode::from(1)
        }
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
        Command::Tag(args) => {
            let tag = match keyed(&args)? {
                Keyed::Plain { mut mac, nonce } => {
                    stream_into(args.file.as_deref(), mac.as_mut(), args.threads())?;
                    let mut tag = vec![0u8; mac.tag_len()];
                    mac.finalize_reset_into(&nonce, &mut tag)?;
                    tag
                }
                Keyed::Ssh { mut mac, seq } => {
                    let mut stream = mac.start(seq);
                    stream_into(args.file.as_deref(), &mut stream, args.threads())?;
                    stream.finish().to_vec()
                }
            };
            outln!("{}", hex::encode(tag))?;
            Ok(Outcome::Done)
        }
        Command::Verify { mac: args, tag } => {
            let keyed = keyed(&args)?;
            let tag = unhex("tag", &tag)?;
            if tag.len() != keyed.tag_len() {
                return Err(Error::TagLength { expected: keyed.tag_len(), got: tag.len() }.into());
            }
            let verdict = match keyed {
                Keyed::Plain { mut mac, nonce } => {
                    stream_into(args.file.as_deref(), mac.as_mut(), args.threads())?;
                    mac.verify_reset(&nonce, &tag)
                }
                Keyed::Ssh { mut mac, seq } => {
                    let mut stream = mac.start(seq);
                    stream_into(args.file.as_deref(), &mut stream, args.threads())?;
                    stream.verify(&tag)
                }
            };
            match verdict {
                Ok(()) => Ok(Outcome::Done),
                Err(Error::InvalidTag) => Ok(Outcome::TagMismatch),
                Err(err) => Err(err.into()),
            }
        }
        Command::Bench(args) if args.wants_report() => {
            report::run(args.quick, &args.out)?;
            Ok(Outcome::Done)
        }
        Command::Bench(args) => {
            bench::run(&args)?;
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

fn list_backends() -> Result<(), CliError> {
    for backend in fastmac::umac::Backend::supported() {
        outln!("{backend}")?;
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
    for alg in ssh::ALGORITHMS {
        let input = if alg.etm { "uint32 length || ciphertext (etm)" } else { "packet" };
        outln!("{:<31} {:>9} {:>9}  {input}", alg.name, alg.key_len, alg.tag_len)?;
    }
    Ok(())
}

/// A keyed MAC ready to stream the input: nonce-based, or an SSH MAC with
/// its packet sequence number.
pub enum Keyed {
    /// A MAC from the algorithm registry and its nonce.
    Plain {
        /// The keyed MAC.
        mac: Box<dyn DynMac>,
        /// The nonce, checked against the algorithm's range.
        nonce: Vec<u8>,
    },
    /// An SSH MAC and the packet sequence number.
    Ssh {
        /// The keyed SSH MAC (boxed: it holds the keys of UMAC-128, about
        /// 4 KiB, which the other variant should not carry).
        mac: Box<SshMac>,
        /// The packet sequence number (`--seq`).
        seq: u32,
    },
}

impl Keyed {
    /// The tag length in bytes.
    pub fn tag_len(&self) -> usize {
        match self {
            Keyed::Plain { mac, .. } => mac.tag_len(),
            Keyed::Ssh { mac, .. } => mac.tag_len(),
        }
    }
}

/// The keyed MAC and its nonce or sequence number, checked before any
/// input is read.
pub fn keyed(args: &MacArgs) -> Result<Keyed, CliError> {
    if let Some(seq) = args.seq {
        let alg = SshAlgorithm::from_name(&args.alg).map_err(|err| {
            let known: Vec<&str> = ssh::ALGORITHMS.iter().map(|a| a.name).collect();
            CliError::Usage(format!("{err} (known SSH MACs: {})", known.join(", ")))
        })?;
        let key = read_key(args.key.as_deref(), args.key_file.as_deref(), alg.key_len)?;
        return Ok(Keyed::Ssh { mac: Box::new(SshMac::new(alg.name, &key)?), seq });
    }
    let alg = Algorithm::from_name(&args.alg).map_err(|err| {
        if SshAlgorithm::from_name(&args.alg).is_ok() {
            CliError::Usage(format!("{:?} is an SSH MAC: give the packet sequence number with --seq N", args.alg))
        } else {
            let known: Vec<&str> = Algorithm::ALL.iter().map(|a| a.info().name).collect();
            CliError::Usage(format!("{err} (known: {}; see `fastmac list`)", known.join(", ")))
        }
    })?;
    let info = alg.info();
    let nonce = match &args.nonce {
        Some(_) if info.max_nonce_len == 0 => {
            return Err(CliError::Usage(format!(
                "wrong nonce length: {} takes no nonce (HMAC has none); drop --nonce",
                info.name
            )));
        }
        Some(text) => unhex("nonce", text)?,
        None if info.max_nonce_len == 0 => Vec::new(),
        None => return Err(CliError::Usage(format!("{} needs a nonce: --nonce HEX", info.name))),
    };
    if !(info.min_nonce_len..=info.max_nonce_len).contains(&nonce.len()) {
        return Err(Error::NonceLength { min: info.min_nonce_len, max: info.max_nonce_len, got: nonce.len() }.into());
    }
    let key: Zeroizing<Vec<u8>> = read_key(args.key.as_deref(), args.key_file.as_deref(), info.key_len)?;
    Ok(Keyed::Plain { mac: alg.new_mac(&key)?, nonce })
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
