//! The server's sockets, so that no client can take them from everyone else: a cap on the
//! connections open from one address (WebSockets included: a connection counts until its
//! socket closes, upgraded or not), a deadline for a request's headers that also closes a
//! keep-alive connection left idle, and the process's open-file limit raised to what the system
//! allows. docs/server.md ("Connections") gives the defaults and the flags.

use crate::config::ConnectionLimits;
use crate::http::client;
use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

/// Raises the soft limit on open files to the hard limit (sockets are files) and returns it.
pub fn raise_open_file_limit() -> io::Result<u64> {
    rlimit::increase_nofile_limit(u64::MAX)
}

/// Serves `app` on `listener` until the process ends.
pub async fn serve(listener: TcpListener, app: Router, limits: ConnectionLimits) -> io::Result<()> {
    let open = Arc::new(OpenConnections::default());
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.idle_timeout)
        .keep_alive(true);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of files or memory for a moment: wait for sockets to close rather than
                // spin on the error.
                tracing::warn!("accepting a connection: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // A trusted proxy holds the connections of many clients: the cap is its to keep.
        let trusted = Arc::clone(&limits.trusted_proxies);
        let from_proxy = client::is_trusted(peer.ip(), &trusted);
        let cap = if from_proxy { 0 } else { limits.per_address };
        let key = client::connection_key(peer.ip());
        let Some(slot) = open.admit(key, cap) else {
            tokio::spawn(refuse(stream, cap));
            continue;
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<_>| {
            // Every limit downstream reads the client from here (`http::client`).
            let client = client::client_address(peer.ip(), request.headers(), &trusted);
            request
                .extensions_mut()
                .insert(ConnectInfo::<SocketAddr>(SocketAddr::new(
                    client,
                    peer.port(),
                )));
            app.clone().oneshot(request)
        });
        let connection = http
            .serve_connection(
                TokioIo::new(Counted {
                    stream,
                    _slot: slot,
                }),
                service,
            )
            .with_upgrades();
        tokio::spawn(async move {
            // A client that goes away mid-request is no news.
            let _ = connection.await;
        });
    }
}

/// The connections open from each address.
#[derive(Debug, Default)]
struct OpenConnections {
    by_address: Mutex<HashMap<IpAddr, usize>>,
}

impl OpenConnections {
    /// Counts a new connection from `ip`, or `None` when the address already holds `cap`.
    fn admit(self: &Arc<Self>, ip: IpAddr, cap: usize) -> Option<Slot> {
        let mut by_address = self.by_address.lock().expect("connection counts");
        let count = by_address.entry(ip).or_insert(0);
        if cap != 0 && *count >= cap {
            return None;
        }
        *count += 1;
        Some(Slot {
            open: Arc::clone(self),
            ip,
        })
    }

    #[cfg(test)]
    fn count(&self, ip: IpAddr) -> usize {
        let by_address = self.by_address.lock().expect("connection counts");
        by_address.get(&ip).copied().unwrap_or(0)
    }
}

/// One counted connection; dropping it (the socket closed) frees its place.
#[derive(Debug)]
struct Slot {
    open: Arc<OpenConnections>,
    ip: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut by_address = self.open.by_address.lock().expect("connection counts");
        if let Some(count) = by_address.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                by_address.remove(&self.ip);
            }
        }
    }
}

/// A socket that holds its place in the count for as long as it lives, through a WebSocket
/// upgrade too (the upgraded connection owns it).
struct Counted {
    stream: TcpStream,
    _slot: Slot,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// How long a refused connection is given to take its answer.
const REFUSAL_TIME: Duration = Duration::from_secs(2);

/// Answers a connection over the cap with a 429 and a sentence, then closes it.
async fn refuse(mut stream: TcpStream, cap: usize) {
    let body = format!(
        "too many connections from your address: at most {cap} may be open at once; \
         close some (other tabs?) and try again\n"
    );
    let answer = format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain; charset=utf-8\r\n\
         retry-after: 5\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(REFUSAL_TIME, async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await?;
        // Read what the client sent until it closes, so that closing does not reset the
        // connection before the client has read the answer.
        let mut sink = [0u8; 1024];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<(), io::Error>(())
    })
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_its_cap_and_a_closed_connection_frees_a_place() {
        let open = Arc::new(OpenConnections::default());
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = open.admit(a, 2).expect("first");
        let _second = open.admit(a, 2).expect("second");
        assert!(
            open.admit(a, 2).is_none(),
            "the third from one address is refused"
        );
        assert!(
            open.admit(b, 2).is_some(),
            "another address is not affected"
        );
        drop(first);
        assert_eq!(open.count(a), 1);
        assert!(
            open.admit(a, 2).is_some(),
            "a closed connection frees its place"
        );
        assert!(open.admit(a, 0).is_some(), "a cap of 0 is no cap");
    }

    #[test]
    fn the_open_file_limit_is_raised_to_the_hard_limit() {
        let (soft, hard) = rlimit::getrlimit(rlimit::Resource::NOFILE).unwrap();
        // Start from a lowered soft limit (not below what the process already uses).
        let lowered = hard.min(soft).saturating_sub(1).max(256);
        rlimit::setrlimit(rlimit::Resource::NOFILE, lowered, hard).unwrap();
        assert_eq!(raise_open_file_limit().unwrap(), hard);
        assert_eq!(rlimit::getrlimit(rlimit::Resource::NOFILE).unwrap().0, hard);
    }
}
