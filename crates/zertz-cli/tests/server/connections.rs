//! Attacks on the server's sockets through `zertz serve`: hundreds of idle connections from one
//! address must neither lock other clients out nor stay open, WebSockets count against the same
//! cap, and the server raises its open-file limit at start.

use std::time::Duration;

use crate::common::server::{Server, temp_db};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// Connections the test server allows one address.
const CAP: usize = 40;

async fn connect_from(source: &str, addr: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{source}:0").parse().unwrap()).unwrap();
    socket.connect(addr.parse().unwrap()).await.unwrap()
}

/// Everything the server sends until it closes the connection (or `wait` passes).
async fn read_to_close(stream: &mut TcpStream, wait: Duration) -> Option<String> {
    let mut got = Vec::new();
    match tokio::time::timeout(wait, stream.read_to_end(&mut got)).await {
        Ok(_) => Some(String::from_utf8_lossy(&got).into_owned()),
        Err(_) => None,
    }
}

/// A plain GET on a connection of its own; the whole answer.
async fn get(source: &str, addr: &str, path: &str) -> String {
    let mut stream = connect_from(source, addr).await;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    read_to_close(&mut stream, Duration::from_secs(10))
        .await
        .expect("an answer")
}

#[tokio::test]
async fn idle_sockets_of_one_address_neither_lock_others_out_nor_stay_open() {
    let (_dir, db) = temp_db();
    let cap = CAP.to_string();
    let server = Server::start_args(
        &db,
        50,
        &["--connections-per-address", &cap, "--idle-timeout", "4"],
    );

    // 300 idle sockets from 127.0.0.1: the first CAP are held, every other one is answered
    // 429 with a sentence and closed.
    let mut idle = Vec::new();
    for _ in 0..300 {
        idle.push(connect_from("127.0.0.1", &server.addr).await);
    }
    // Read them all at once: a refusal comes at once, a held socket says nothing.
    let mut reads = tokio::task::JoinSet::new();
    for mut stream in idle {
        reads.spawn(async move {
            let answer = read_to_close(&mut stream, Duration::from_millis(1500)).await;
            (answer, stream)
        });
    }
    let mut refused = 0;
    let mut held = Vec::new();
    while let Some(read) = reads.join_next().await {
        match read.unwrap() {
            (Some(answer), _) => {
                assert!(answer.starts_with("HTTP/1.1 429"), "{answer:?}");
                assert!(
                    answer.contains("at most 40 may be open at once"),
                    "{answer}"
                );
                refused += 1;
            }
            (None, stream) => held.push(stream),
        }
    }
    assert_eq!(
        held.len(),
        CAP,
        "the server holds exactly its cap from one address"
    );
    assert_eq!(refused, 300 - CAP);

    // Meanwhile a client from another address is served at once.
    let answer = get("127.0.0.2", &server.addr, "/api/health").await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");

    // The idle ones are closed by the server after the idle timeout, without a byte sent.
    for stream in &mut held {
        let closed = read_to_close(stream, Duration::from_secs(10)).await;
        assert!(
            closed.is_some(),
            "an idle connection is closed by the server"
        );
    }
    drop(held);
    // Their places are free again: 127.0.0.1 is served.
    let answer = get("127.0.0.1", &server.addr, "/api/health").await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // The open-file limit was raised and said at start (read from the log by now: the log is
    // read by a thread of its own, so not checked at once).
    assert!(
        server.log().contains("open files: up to"),
        "the open-file limit is logged: {}",
        server.log()
    );
    // The log goes to a pipe here, as to a file: plain text, no terminal colour codes.
    assert!(
        !server.log().contains('\u{1b}'),
        "no ANSI escapes in a log that is not a terminal: {:?}",
        server.log()
    );
}

#[tokio::test]
async fn websockets_count_against_the_cap_until_they_close() {
    let (_dir, db) = temp_db();
    let server = Server::start_args(&db, 50, &["--connections-per-address", "5"]);
    let url = format!("ws://{}/api/analysis/ws", server.addr);
    let mut sockets = Vec::new();
    for _ in 0..5 {
        let (ws, _) = tokio_tungstenite::connect_async(&url)
            .await
            .expect("a WebSocket");
        sockets.push(ws);
    }
    // The WebSockets are open after their upgrade: the sixth connection is refused.
    let err = tokio_tungstenite::connect_async(&url)
        .await
        .expect_err("over the cap");
    assert!(err.to_string().contains("429"), "{err}");
    let answer = get("127.0.0.1", &server.addr, "/api/health").await;
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    // One closed, one place free.
    let mut first = sockets.remove(0);
    first.close(None).await.unwrap();
    drop(first);
    let mut served = false;
    for _ in 0..50 {
        // The server notices the close when it reads the close frame's end: ask until then.
        let answer = get("127.0.0.1", &server.addr, "/api/health").await;
        if answer.starts_with("HTTP/1.1 200") {
            served = true;
            break;
        }
        tokio::task::yield_now().await;
    }
    assert!(served, "a closed WebSocket frees its place");
}
