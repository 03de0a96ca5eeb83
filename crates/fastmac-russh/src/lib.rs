//! russh sessions that speak `umac-*@openssh.com` through fastmac: a client
//! and a server with one cipher (`aes128-ctr`) and exactly one MAC offered,
//! shared by the session tests against OpenSSH (`tests/`) and the loopback
//! benchmark (`src/bin/russh-bench.rs`).
//!
//! The tests need the russh copy patched by `make russh-umac`
//! (`crates/fastmac-russh/russh-umac.patch`, docs/russh.md); this library
//! names MACs by string only, so that the benchmark also builds against
//! stock russh.

use std::borrow::Cow;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use russh::keys::{PrivateKey, PrivateKeyWithHashAlg, PublicKey, PublicKeyOrCertificate};
use russh::server::{Auth, Msg, Session, VerifiedPublicKey};
use russh::{Channel, ChannelId, ChannelMsg, Limits, Names, Preferred, cipher, client, mac, server};
use sha2::{Digest, Sha256};
use tokio::net::TcpListener;

/// The one cipher of every session: not an AEAD (with chacha20-poly1305 or
/// AES-GCM the cipher carries its own tag and no MAC is used).
pub const CIPHER: cipher::Name = cipher::AES_128_CTR;

/// The command the server side answers by echoing its input (OpenSSH's
/// sshd runs the real `cat`).
pub const ECHO_COMMAND: &str = "cat";

/// The command the russh server answers by reading its input to the end and
/// discarding it (the benchmark's bulk transfer).
pub const SINK_COMMAND: &str = "sink";

/// What a session failed on.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// The MAC named `name`, as russh knows it.
pub fn mac_by_name(name: &str) -> Result<mac::Name, Error> {
    mac::Name::try_from(name).map_err(|()| format!("russh has no MAC named {name:?}").into())
}

/// The algorithms a side offers: [`CIPHER`] and `mac` alone, russh's
/// defaults for the rest.
pub fn preferred(mac: mac::Name) -> Preferred {
    Preferred { cipher: Cow::Owned(vec![CIPHER]), mac: Cow::Owned(vec![mac]), ..Preferred::default() }
}

/// A rekey after `bytes` in either direction (RFC 4253 section 9); no time
/// limit within a test.
pub fn rekey_after(bytes: usize) -> Limits {
    Limits::new(bytes, bytes, Duration::from_secs(3600))
}

/// `size` bytes that both ends of a test can produce from `seed`: SHA-256
/// of `seed || block number`, block after block.
pub fn payload(seed: u64, size: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(size);
    for block in 0u64.. {
        if out.len() >= size {
            break;
        }
        let digest = Sha256::new().chain_update(seed.to_be_bytes()).chain_update(block.to_be_bytes()).finalize();
        out.extend_from_slice(&digest[..digest.len().min(size - out.len())]);
    }
    out
}

/// SHA-256 in hex, to compare what was sent with what came back.
pub fn sha256_hex(data: &[u8]) -> String {
    Sha256::digest(data).iter().map(|b| format!("{b:02x}")).collect()
}

/// The algorithms one key exchange settled on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Negotiated {
    /// The cipher (both directions).
    pub cipher: String,
    /// The MAC of client-to-server packets.
    pub client_to_server_mac: String,
    /// The MAC of server-to-client packets.
    pub server_to_client_mac: String,
}

impl Negotiated {
    fn from_names(names: &Names) -> Self {
        Negotiated {
            cipher: names.cipher.as_ref().to_owned(),
            client_to_server_mac: names.client_mac.as_ref().to_owned(),
            server_to_client_mac: names.server_mac.as_ref().to_owned(),
        }
    }

    /// Whether both directions use [`CIPHER`] and `mac`.
    pub fn is(&self, mac: mac::Name) -> bool {
        self.cipher == CIPHER.as_ref()
            && self.client_to_server_mac == mac.as_ref()
            && self.server_to_client_mac == mac.as_ref()
    }
}

/// The key exchanges of a client session so far, initial one first.
pub type KexLog = Arc<Mutex<Vec<Negotiated>>>;

/// The client's handler: accepts only the expected host key, and records
/// every key exchange's algorithms.
pub struct Client {
    host_key: PublicKey,
    kexes: KexLog,
}

impl client::Handler for Client {
    type Error = russh::Error;

    async fn check_server_key(&mut self, offered: &PublicKeyOrCertificate) -> Result<bool, Self::Error> {
        Ok(
            matches!(offered, PublicKeyOrCertificate::PublicKey { key, .. } if key.key_data() == self.host_key.key_data()),
        )
    }

    async fn kex_done(
        &mut self,
        _shared_secret: Option<&[u8]>,
        names: &Names,
        _session: &mut client::Session,
    ) -> Result<(), Self::Error> {
        self.kexes.lock().unwrap_or_else(PoisonError::into_inner).push(Negotiated::from_names(names));
        Ok(())
    }
}

/// A client session, authenticated.
pub struct Connection {
    /// The session.
    pub handle: client::Handle<Client>,
    /// Its key exchanges (more are added as it rekeys).
    pub kexes: KexLog,
}

/// Where and how a client connects.
pub struct ClientSetup<'a> {
    /// The server's port on 127.0.0.1.
    pub port: u16,
    /// The user to log in as.
    pub user: &'a str,
    /// The client's private key (OpenSSH format).
    pub key: &'a PrivateKey,
    /// The only host key accepted.
    pub host_key: &'a PublicKey,
    /// The one MAC offered.
    pub mac: mac::Name,
    /// Rekey after this many bytes each way.
    pub rekey_bytes: usize,
}

/// Connects and authenticates with the client's key.
pub async fn connect(setup: &ClientSetup<'_>) -> Result<Connection, Error> {
    let config = client::Config {
        preferred: preferred(setup.mac),
        limits: rekey_after(setup.rekey_bytes),
        inactivity_timeout: Some(Duration::from_secs(120)),
        ..client::Config::default()
    };
    let kexes = KexLog::default();
    let handler = Client { host_key: setup.host_key.clone(), kexes: kexes.clone() };
    let mut handle = client::connect(Arc::new(config), ("127.0.0.1", setup.port), handler).await?;
    let key = PrivateKeyWithHashAlg::new(Arc::new(setup.key.clone()), None);
    if !handle.authenticate_publickey(setup.user, key).await?.success() {
        if handle.is_closed() {
            return Err("the server closed the connection during authentication".into());
        }
        return Err(format!("the server refused the client key for {}", setup.user).into());
    }
    Ok(Connection { handle, kexes })
}

/// What a command sent back.
#[derive(Debug)]
pub struct Exchange {
    /// Its standard output.
    pub output: Vec<u8>,
    /// Its exit status, if it sent one.
    pub exit_status: Option<u32>,
}

/// Runs `command` on a new channel, writes `input` to its standard input
/// `times` times over (while reading its output), closes the input, and
/// collects the output until the channel closes.
pub async fn exec(
    connection: &Connection,
    command: &str,
    input: Arc<Vec<u8>>,
    times: usize,
) -> Result<Exchange, Error> {
    let channel = connection.handle.channel_open_session().await?;
    channel.exec(true, command).await?;
    let (mut reader, writer) = channel.split();
    let sender = tokio::spawn(async move {
        for _ in 0..times {
            writer.data(&input[..]).await?;
        }
        writer.eof().await
    });
    let mut exchange = Exchange { output: Vec::new(), exit_status: None };
    while let Some(message) = reader.wait().await {
        match message {
            ChannelMsg::Data { data } => exchange.output.extend_from_slice(&data),
            ChannelMsg::ExitStatus { exit_status } => exchange.exit_status = Some(exit_status),
            _ => {}
        }
    }
    sender.await??;
    Ok(exchange)
}

/// Ends a session politely.
pub async fn disconnect(connection: Connection) -> Result<(), Error> {
    connection.handle.disconnect(russh::Disconnect::ByApplication, "", "en").await?;
    Ok(())
}

/// A server's configuration: `host_key`, [`CIPHER`] and `mac` alone, public
/// key authentication only.
pub fn server_config(host_key: PrivateKey, mac: mac::Name, rekey_bytes: usize) -> server::Config {
    server::Config {
        keys: vec![host_key],
        preferred: preferred(mac),
        limits: rekey_after(rekey_bytes),
        methods: russh::MethodSet::from(&[russh::MethodKind::PublicKey][..]),
        auth_rejection_time: Duration::from_millis(100),
        inactivity_timeout: Some(Duration::from_secs(120)),
        ..server::Config::default()
    }
}

/// What the server runs on a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Command {
    Echo,
    Sink,
}

/// The server's handler for one connection: accepts `client_key` only, and
/// answers [`ECHO_COMMAND`] and [`SINK_COMMAND`].
pub struct ServerHandler {
    client_key: PublicKey,
    commands: Vec<(ChannelId, Command)>,
}

impl ServerHandler {
    /// A handler that lets in `client_key`.
    pub fn new(client_key: PublicKey) -> Self {
        ServerHandler { client_key, commands: Vec::new() }
    }

    fn command(&self, channel: ChannelId) -> Option<Command> {
        self.commands.iter().find(|(id, _)| *id == channel).map(|(_, command)| *command)
    }
}

impl server::Handler for ServerHandler {
    type Error = russh::Error;

    async fn auth_publickey(&mut self, _user: &str, key: VerifiedPublicKey<'_>) -> Result<Auth, Self::Error> {
        Ok(if key.public_key.key_data() == self.client_key.key_data() { Auth::Accept } else { Auth::reject() })
    }

    async fn channel_open_session(
        &mut self,
        _channel: Channel<Msg>,
        reply: server::ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        reply.accept().await;
        Ok(())
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let command = if data == ECHO_COMMAND.as_bytes() {
            Command::Echo
        } else if data == SINK_COMMAND.as_bytes() {
            Command::Sink
        } else {
            return session.channel_failure(channel);
        };
        self.commands.push((channel, command));
        session.channel_success(channel)
    }

    async fn data(&mut self, channel: ChannelId, data: &[u8], session: &mut Session) -> Result<(), Self::Error> {
        match self.command(channel) {
            Some(Command::Echo) => session.data(channel, data.to_vec()),
            Some(Command::Sink) => Ok(()),
            None => Err(russh::Error::WrongChannel),
        }
    }

    async fn channel_eof(&mut self, channel: ChannelId, session: &mut Session) -> Result<(), Self::Error> {
        session.exit_status_request(channel, 0)?;
        session.eof(channel)?;
        session.close(channel)
    }
}

/// Accepts one connection on `listener` and serves it to its end; the
/// session's error (a refused tag, a dropped connection) is returned.
pub async fn serve_one(
    listener: &TcpListener,
    config: Arc<server::Config>,
    client_key: PublicKey,
) -> Result<(), Error> {
    let (socket, _) = listener.accept().await?;
    socket.set_nodelay(true)?;
    server::run_stream(config, socket, ServerHandler::new(client_key)).await?.await?;
    Ok(())
}

/// Reads an OpenSSH private key file (unencrypted).
pub fn load_private_key(path: &Path) -> Result<PrivateKey, Error> {
    Ok(russh::keys::load_secret_key(path, None)?)
}

/// Reads an OpenSSH public key file.
pub fn load_public_key(path: &Path) -> Result<PublicKey, Error> {
    Ok(russh::keys::load_public_key(path)?)
}
