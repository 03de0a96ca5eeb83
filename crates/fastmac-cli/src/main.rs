//! `fastmac`: tag, verify and list MACs from the command line.
//!
//! Exit status: 0 on success (and for a valid tag), 1 for a tag that does
//! not verify, 2 for bad input (with a one-line message on stderr).

mod input;
mod report;

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use fastmac::{Algorithm, Error};
use zeroize::Zeroizing;

use input::{CliError, read_key, stream_into, unhex};

#[derive(Parser)]
#[command(name = "fastmac", version, about = "Fast, provably secure message authentication")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the tag of a file (or stdin) in lowercase hex.
    Tag(MacArgs),
    /// Check a tag: exit 0 if valid, 1 if not, 2 on bad input.
    Verify {
        #[command(flatten)]
        mac: MacArgs,
        /// The tag to check, in hex.
        #[arg(long)]
        tag: String,
    },
    /// List the algorithms with their key, nonce and tag lengths and forgery bounds.
    List,
}

#[derive(Args)]
struct MacArgs {
    /// Algorithm name, e.g. umac-64 (see `fastmac list`).
    #[arg(long)]
    alg: String,
    /// Key in hex.
    #[arg(long, conflicts_with = "key_file", required_unless_present = "key_file")]
    key: Option<String>,
    /// File holding the key: raw bytes of the key's length, or hex text.
    #[arg(long)]
    key_file: Option<std::path::PathBuf>,
    /// Nonce in hex.
    #[arg(long)]
    nonce: String,
    /// Input file; stdin when absent or "-".
    file: Option<std::path::PathBuf>,
}

enum Outcome {
    Done,
    TagMismatch,
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(Outcome::Done) => ExitCode::SUCCESS,
        Ok(Outcome::TagMismatch) => {
            eprintln!("fastmac: tag does not verify");
            ExitCode::from(1)
        }
        Err(err) => {
            eprintln!("fastmac: error: {err}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<Outcome, CliError> {
    match cli.command {
        Command::Tag(args) => {
            let (mut mac, nonce) = keyed(&args)?;
            stream_into(args.file.as_deref(), mac.as_mut())?;
            let mut tag = vec![0u8; mac.tag_len()];
            mac.finalize_reset_into(&nonce, &mut tag)?;
            println!("{}", hex::encode(tag));
            Ok(Outcome::Done)
        }
        Command::Verify { mac: args, tag } => {
            let (mut mac, nonce) = keyed(&args)?;
            let tag = unhex("tag", &tag)?;
            if tag.len() != mac.tag_len() {
                return Err(Error::TagLength { expected: mac.tag_len(), got: tag.len() }.into());
            }
            stream_into(args.file.as_deref(), mac.as_mut())?;
            match mac.verify_reset(&nonce, &tag) {
                Ok(()) => Ok(Outcome::Done),
                Err(Error::InvalidTag) => Ok(Outcome::TagMismatch),
                Err(err) => Err(err.into()),
            }
        }
        Command::List => {
            println!("{:<12} {:>9} {:>11} {:>9}  forgery bound", "algorithm", "key (B)", "nonce (B)", "tag (B)");
            for alg in Algorithm::ALL {
                let info = alg.info();
                let nonce = if info.min_nonce_len == info.max_nonce_len {
                    info.min_nonce_len.to_string()
                } else {
                    format!("{}-{}", info.min_nonce_len, info.max_nonce_len)
                };
                println!(
                    "{:<12} {:>9} {:>11} {:>9}  2^{} per attempt ({})",
                    info.name, info.key_len, nonce, info.tag_len, info.forgery_bound_log2, info.bound_source
                );
            }
            Ok(Outcome::Done)
        }
    }
}

/// The keyed MAC and the nonce, checked before any input is read.
fn keyed(args: &MacArgs) -> Result<(Box<dyn fastmac::DynMac>, Vec<u8>), CliError> {
    let alg = Algorithm::from_name(&args.alg)?;
    let info = alg.info();
    let key: Zeroizing<Vec<u8>> = read_key(args.key.as_deref(), args.key_file.as_deref(), info.key_len)?;
    let mac = alg.new_mac(&key)?;
    let nonce = unhex("nonce", &args.nonce)?;
    if !(info.min_nonce_len..=info.max_nonce_len).contains(&nonce.len()) {
        return Err(Error::NonceLength { min: info.min_nonce_len, max: info.max_nonce_len, got: nonce.len() }.into());
    }
    Ok((mac, nonce))
}
