//! Several `zertz serve` nodes on one PostgreSQL database form one service
//! (docs/server.md, "Several nodes"): clients attached to different nodes play one game (the
//! node holding the game's lease serves the others' requests, passed on to it, WebSocket
//! included), and a node killed with SIGKILL mid-game loses its games to the others, which
//! finish them from the event log: no acknowledged move lost, none played twice.
//!
//! The real binary, three processes on loopback, on a fresh database on the server that
//! `ZERTZ_TEST_POSTGRES` names (without it, NOT RUN on stderr, as every PostgreSQL test of
//! `zertz serve`; CI always sets it).

use std::time::{Duration, Instant};

use crate::common::accounts::Browser;
use crate::common::play::{Rng, mv, pick_move, to_move};
use crate::common::server::{Db, Server, string};
use crate::common::ws::Ws;
use serde_json::{Value, json};

/// How long a node's lease lasts here: short, so that a dead node's games move quickly.
const LEASE_MS: u64 = 1500;

/// Three nodes on `db`.
fn three_nodes(db: &Db) -> Vec<Server> {
    ["n1", "n2", "n3"]
        .iter()
        .map(|node| {
            Server::start_args(
                db,
                50,
                &["--node", node, "--lease-ms", &LEASE_MS.to_string()],
            )
        })
        .collect()
}

/// An action sent to `node`, asked again while the game is between nodes (503: its node died
/// and its lease has not run out yet). Returns the version after it.
async fn act_retrying(node: &Server, id: &str, token: &str, action: Value) -> i64 {
    let deadline = Instant::now() + Duration::from_millis(LEASE_MS * 6);
    loop {
        let (status, body) = node.act(id, token, action.clone()).await;
        match status {
            200 => return body["version"].as_i64().expect("version"),
            503 if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            _ => panic!("{action} on {}: {status} {body}", node.addr),
        }
    }
}

/// The game's state from `node` (legal moves spelled out), asked again while it is between
/// nodes.
async fn state_retrying(node: &Server, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_millis(LEASE_MS * 6);
    loop {
        let (status, body) = node.get(&format!("/api/games/{id}?legal=list"), None).await;
        match status {
            200 => return body,
            503 if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            _ => panic!("GET game {id} on {}: {status} {body}", node.addr),
        }
    }
}

/// Plays up to `n` moves, each seat through its own node; returns the moves acknowledged.
async fn play(
    nodes: [&Server; 2],
    id: &str,
    tokens: &[String; 2],
    rng: &mut Rng,
    n: usize,
) -> Vec<String> {
    let mut played = Vec::new();
    for _ in 0..n {
        let seat_node = nodes[0];
        let state = state_retrying(seat_node, id).await;
        if state["status"] != "live" {
            break;
        }
        let seat = to_move(&state);
        let text = pick_move(&state, rng);
        let before = state["version"].as_i64().unwrap();
        let v = act_retrying(nodes[seat - 1], id, &tokens[seat - 1], mv(&text)).await;
        assert_eq!(v, before + 1, "a move is one event");
        played.push(text);
    }
    played
}

async fn survives_its_node(db: Db) {
    let mut nodes = three_nodes(&db);
    // Alice makes the game on n1 (which holds it); Bob joins through n2.
    let (id, [alice, invite]) = nodes[0]
        .invitation(json!({"clock": {"kind": "fischer", "base_ms": 600000, "increment_ms": 0}}))
        .await;
    let joined = nodes[1].join(&id, &invite, "Bob").await;
    let bob = string(&joined["token"]);
    let tokens = [alice, bob];
    // A spectator watches through n3: its socket is passed on to n1.
    let mut watcher = nodes[2].ws(&id, None, None).await;
    let mut rng = Rng::new(22);
    // Alice plays through n1, Bob through n2.
    let mut acknowledged = play([&nodes[0], &nodes[1]], &id, &tokens, &mut rng, 6).await;
    assert_eq!(acknowledged.len(), 6);
    let version = nodes[1].game(&id, None).await["version"].as_i64().unwrap();
    watcher.wait_version(version).await;

    let before = nodes[1].game(&id, None).await;
    let mover = to_move(&before);
    let running = before["clocks"][mover - 1]["remaining_ms"]
        .as_i64()
        .unwrap();

    // n1 dies. Its lease runs out; n2 or n3 takes the game from the event log.
    let killed = Instant::now();
    nodes[0].kill();
    // The watcher's socket through the dead node ends (in time, or `closed` panics).
    watcher.closed().await;
    // The clock of the player to move was not charged for the gap: the turn restarted when
    // the game came back.
    let back = state_retrying(&nodes[2], &id).await;
    let gap = killed.elapsed().as_millis() as i64;
    // The lease was renewed at most a third of it before the kill.
    let ttl = LEASE_MS as i64;
    assert!(
        gap >= ttl * 2 / 3,
        "the game came back before the lease ran out"
    );
    let shown = back["clocks"][mover - 1]["remaining_ms"].as_i64().unwrap();
    assert!(
        running - shown < 500,
        "{running} ms before the kill, {shown} ms {gap} ms after it: the gap was charged"
    );
    assert_eq!(back["version"], before["version"]);
    // Alice goes on through n3 now, Bob through n2; the game is finished there.
    acknowledged.extend(play([&nodes[2], &nodes[1]], &id, &tokens, &mut rng, 400).await);
    let end = state_retrying(&nodes[2], &id).await;
    assert_eq!(end["status"], "finished", "{}", end["status"]);
    let moves: Vec<String> = serde_json::from_value(end["moves"].clone()).unwrap();
    assert_eq!(
        moves, acknowledged,
        "every acknowledged move stored, in order, and none twice"
    );
    // The watcher comes back through a surviving node and resyncs from where it was.
    let since = watcher.version;
    let back = nodes[2].ws(&id, None, Some(since)).await;
    assert_eq!(back.version, end["version"].as_i64().unwrap());
    for n in nodes.iter_mut().skip(1) {
        n.kill();
    }
}

#[tokio::test]
async fn a_game_survives_its_node() {
    crate::common::postgres::run("survives_its_node", survives_its_node).await;
}

/// A node paused longer than its lease loses the game to another node; when it goes on, the
/// WebSocket attached to its stale copy is closed with 1012 (service restart) instead of going
/// quiet, and the client reconnecting to it is served the moves made meanwhile.
async fn stale_sockets_close(db: Db) {
    let args = |node: &'static str| ["--node", node, "--lease-ms", "1500"];
    let n1 = Server::start_args(&db, 50, &args("n1"));
    let n2 = Server::start_args(&db, 50, &args("n2"));
    let (id, [alice, invite]) = n1
        .invitation(json!({"clock": {"kind": "fischer", "base_ms": 600000, "increment_ms": 0}}))
        .await;
    let bob = string(&n2.join(&id, &invite, "Bob").await["token"]);
    let tokens = [alice, bob];
    // A spectator on n1, which holds the game.
    let mut watcher = n1.ws(&id, None, None).await;
    let mut rng = Rng::new(7);
    play([&n1, &n2], &id, &tokens, &mut rng, 2).await;

    n1.pause(true);
    // Through n2 only: its lease on n1 runs out and n2 takes the game.
    let moved = play([&n2, &n2], &id, &tokens, &mut rng, 2).await;
    assert_eq!(moved.len(), 2, "n2 plays the game while n1 is paused");
    let version = n2.game(&id, None).await["version"].as_i64().unwrap();
    n1.pause(false);

    // n1's next renewal finds the lease gone: the socket is closed, not left quiet.
    let (code, reason) = watcher
        .closed()
        .await
        .expect("a close frame from the stale node");
    assert_eq!(code, 1012, "closed with service restart ({reason})");
    // Reconnecting to n1 (as the page does) is served by n2, the moves made meanwhile included.
    let back = n1.ws(&id, None, Some(version - 2)).await;
    assert_eq!(back.version, version);
    // n1 said why (a WARN, which `assert_healthy` refuses) and goes on serving. Its log is
    // read from its output by another thread: the line may come in just after the close.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !n1.log().contains("lease lost") {
        assert!(Instant::now() < deadline, "n1's log:\n{}", n1.log());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for node in [&n1, &n2] {
        assert_eq!(node.get("/api/health", None).await.0, 200);
        assert!(!node.log().contains("panicked"), "{}", node.log());
    }
}

#[tokio::test]
async fn a_paused_node_closes_its_stale_sockets() {
    crate::common::postgres::run("stale_sockets", stale_sockets_close).await;
}

/// An account active on one node is online on the others (`LISTEN`/`NOTIFY` on
/// `zertz_online`): a client of n2 sees Ann, who only ever spoke to n1.
/// Who `node` says is online.
async fn online(node: &Server) -> Value {
    node.get("/api/online", None).await.1
}

async fn online_across(db: Db) {
    let n1 = Server::start_args(&db, 50, &["--node", "n1"]);
    let n2 = Server::start_args(&db, 50, &["--node", "n2"]);
    assert_eq!(online(&n2).await["count"], 0);
    let mut ann = crate::common::accounts::Browser::new(&n1);
    ann.sign_up_ok("Ann", "a long enough password").await;
    assert_eq!(ann.me().await.as_deref(), Some("Ann"));
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let seen = online(&n2).await;
        if seen["names"] == json!(["Ann"]) {
            break;
        }
        assert!(Instant::now() < deadline, "Ann never online on n2: {seen}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(online(&n1).await["names"], json!(["Ann"]));
}

#[tokio::test]
async fn an_account_online_on_one_node_is_online_on_all() {
    crate::common::postgres::run("online_across", online_across).await;
}

/// HAProxy with deploy/haproxy.cfg in front of `nodes`, on a free loopback port; killed when
/// dropped.
struct Balancer {
    child: std::process::Child,
    addr: String,
}

impl Drop for Balancer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Balancer {
    async fn start(nodes: &[Server]) -> Balancer {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let addr = format!("127.0.0.1:{port}");
        let config = concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/haproxy.cfg");
        let child = std::process::Command::new("haproxy")
            .args(["-db", "-f", config])
            .env("ZERTZ_LB_ADDR", &addr)
            .env("ZERTZ_NODE1", &nodes[0].addr)
            .env("ZERTZ_NODE2", &nodes[1].addr)
            .env("ZERTZ_NODE3", &nodes[2].addr)
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect(
                "start haproxy (Debian's package `haproxy`: `apt-get install haproxy`; \
                 .ci/run installs it)",
            );
        let balancer = Balancer { child, addr };
        let http = reqwest::Client::new();
        let health = format!("http://{}/api/health", balancer.addr);
        for _ in 0..100 {
            if let Ok(r) = http.get(&health).send().await
                && r.status() == 200
            {
                return balancer;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("haproxy did not answer on {}", balancer.addr);
    }
}

async fn post_json(http: &reqwest::Client, url: String, body: Value, token: Option<&str>) -> Value {
    let mut request = http.post(&url).json(&body);
    if let Some(t) = token {
        request = request.bearer_auth(t);
    }
    let answer = request.send().await.expect("POST");
    let status = answer.status().as_u16();
    let value: Value = answer.json().await.expect("JSON");
    assert!(status == 200 || status == 201, "{url}: {status} {value}");
    value
}

async fn two_clients(db: Db) {
    let mut nodes = three_nodes(&db);
    let balancer = Balancer::start(&nodes).await;
    let lb = |path: &str| format!("http://{}{path}", balancer.addr);
    let http = reqwest::Client::new();
    // Alice makes the game and joins it through the balancer.
    let created = post_json(
        &http,
        lb("/api/games"),
        json!({"opponent": {"kind": "invite"}, "name": "Alice"}),
        None,
    )
    .await;
    let id = string(&created["id"]);
    let alice = string(&created["token"]);
    let joined = post_json(
        &http,
        lb(&format!("/api/games/{id}/join")),
        json!({"name": "Bob", "token": string(&created["invite_token"])}),
        None,
    )
    .await;
    let bob = string(&joined["token"]);
    // Alice plays over a WebSocket through the balancer; Bob over HTTP, straight to each node
    // in turn (two of which do not hold the game and pass his moves on).
    let mut alice_ws = Ws::connect(
        &format!("ws://{}/api/games/{id}/ws?token={alice}", balancer.addr),
        None,
    )
    .await
    .expect("Alice's socket through HAProxy");
    let mut rng = Rng::new(7);
    let mut played = Vec::new();
    for turn in 0..12 {
        let state = alice_ws.state.clone();
        if state["status"] != "live" {
            break;
        }
        let state = {
            // The legal moves spelled out, from whichever node.
            let node = &nodes[turn % 3];
            node.game(&id, None).await
        };
        let text = pick_move(&state, &mut rng);
        let v = if to_move(&state) == 1 {
            alice_ws.act_ok(mv(&text)).await
        } else {
            nodes[turn % 3].act_ok(&id, &bob, mv(&text)).await
        };
        alice_ws.wait_version(v).await;
        let (_, event) = alice_ws.events.last().unwrap();
        assert_eq!(event["notation"], text.as_str(), "{event}");
        played.push(text);
    }
    assert!(played.len() >= 10, "the game went on: {played:?}");
    // The room's chat crosses nodes: every socket of a game ends at the node holding it.
    let mut spectators = Vec::new();
    for node in &nodes {
        spectators.push(node.ws(&id, None, None).await);
    }
    assert_eq!(alice_ws.say("good luck").await["type"], "ack");
    for ws in spectators.iter_mut() {
        let line = ws.until_line(|l| l["text"] == "good luck").await;
        assert_eq!(line["name"], "Alice");
    }
    // A seek made on one node is in every node's lobby (the lobby is read from the database).
    let seek = nodes[0]
        .create(json!({"opponent": {"kind": "open"}, "name": "Cleo"}))
        .await;
    let seek = string(&seek["id"]);
    for node in &nodes {
        let (status, lobby) = node.get("/api/games?lobby=true", None).await;
        assert_eq!(status, 200, "{lobby}");
        assert!(
            lobby.to_string().contains(&seek),
            "seek {seek} not in {lobby}"
        );
    }
    for node in &nodes {
        let moves: Vec<String> =
            serde_json::from_value(node.game(&id, None).await["moves"].clone()).unwrap();
        assert_eq!(moves, played, "every node answers with the same game");
    }
    drop(alice_ws);
    drop(balancer);
    for n in nodes.iter_mut() {
        n.kill();
    }
}

#[tokio::test]
async fn two_clients_on_different_nodes_play_one_game() {
    crate::common::postgres::run("two_clients", two_clients).await;
}

/// A quick-pairing WebSocket.
type PairingSocket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Asks `node` for a rated blitz game as `browser` (signed in there); once this returns, the
/// request is in the queue.
async fn ask_pairing(node: &Server, browser: &Browser) -> PairingSocket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let url = format!("ws://{}/api/pairing/ws?pool=standard-blitz", node.addr);
    let mut request = url.into_client_request().unwrap();
    let headers = request.headers_mut();
    headers.insert("cookie", browser.cookie_header().parse().unwrap());
    if let Some(origin) = &browser.origin {
        headers.insert("origin", origin.parse().unwrap());
    }
    let (socket, _) = tokio_tungstenite::connect_async(request)
        .await
        .unwrap_or_else(|e| panic!("pairing socket on {}: {e}", node.addr));
    socket
}

/// Reads a pairing socket until `paired` (skipping `waiting`); returns it.
async fn paired(socket: &mut PairingSocket) -> Value {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let message = tokio::time::timeout(left, socket.next())
            .await
            .expect("paired in time")
            .expect("the pairing socket is open")
            .expect("a message");
        if let Message::Text(text) = message {
            let v: Value = serde_json::from_str(&text).unwrap();
            match v["type"].as_str() {
                Some("paired") => return v,
                Some("waiting") => {}
                _ => panic!("unexpected on the pairing socket: {v}"),
            }
        }
    }
}

/// Who waits for a game, as `node` says.
async fn queues(node: &Server) -> Value {
    let (status, body) = node.get("/api/pairing", None).await;
    assert_eq!(status, 200, "{body}");
    body["queues"].clone()
}

/// Two accounts asking for quick pairing, one on each node, get the same game: the queue is
/// shared in PostgreSQL, and the node that pairs tells the other by `NOTIFY zertz_pairing`.
async fn pairing_across(db: Db) {
    let n1 = Server::start_args(&db, 50, &["--node", "n1"]);
    let n2 = Server::start_args(&db, 50, &["--node", "n2"]);
    let mut ann = Browser::new(&n1);
    ann.sign_up_ok("Ann", "a long enough password").await;
    let mut bob = Browser::new(&n2);
    bob.sign_up_ok("Bob", "a long enough password").await;
    let mut a = ask_pairing(&n1, &ann).await;
    // Ann's request, made on n1, is counted by n2.
    let one = json!([{"pool": "standard-blitz", "rated": true, "guests": false, "waiting": 1}]);
    assert_eq!(queues(&n2).await, one);
    let mut b = ask_pairing(&n2, &bob).await;
    let (pa, pb) = (paired(&mut a).await, paired(&mut b).await);
    assert_eq!(pa["game"], pb["game"], "one game for both: {pa} {pb}");
    let mut seats = [pa["seat"].as_u64().unwrap(), pb["seat"].as_u64().unwrap()];
    seats.sort();
    assert_eq!(seats, [1, 2]);
    let id = string(&pa["game"]);
    // The game is live, both seated, and each token holds its seat, through either node.
    for (node, told, name) in [(&n2, &pa, "Ann"), (&n1, &pb, "Bob")] {
        let view = node.game(&id, Some(told["token"].as_str().unwrap())).await;
        assert_eq!(view["status"], "live", "{view}");
        let seat = told["seat"].as_u64().unwrap();
        assert_eq!(view["you"], seat, "{view}");
        assert_eq!(view["seats"][seat as usize - 1]["name"], name, "{view}");
    }
    // Both requests left the queue, on both nodes.
    assert_eq!(queues(&n1).await, json!([]));
    assert_eq!(queues(&n2).await, json!([]));
}

#[tokio::test]
async fn quick_pairing_pairs_clients_of_different_nodes() {
    crate::common::postgres::run("pairing_across", pairing_across).await;
}

/// A match's watcher on n2 sees the steps stored by n1 (`NOTIFY zertz_match`, then n2 re-reads
/// the match) without reconnecting: the opponent joining and the first game starting, then
/// the match resigned.
async fn match_across(db: Db) {
    let n1 = Server::start_args(&db, 50, &["--node", "n1"]);
    let n2 = Server::start_args(&db, 50, &["--node", "n2"]);
    let created = n1.invite_match(json!({})).await;
    let mid = string(&created["id"]);
    let ann = string(&created["token"]);
    let invite = string(&created["invite_token"]);
    let mut watch = n2.match_ws(&mid, None).await;
    assert_eq!(watch.state["status"], "open");
    n1.join_match(&mid, &invite, "Ben").await;
    let m = watch.until(|m| m["current_game"].is_string()).await;
    assert_eq!(m["status"], "live");
    assert_eq!(m["players"][1]["name"], "Ben");
    let (status, body) = n1
        .post(
            &format!("/api/matches/{mid}/resign"),
            &json!({}),
            Some(&ann),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let m = watch.until(|m| m["winner"] == 1).await;
    assert_eq!(m["resigned"], 0);
    assert_eq!(m["status"], "finished");
}

#[tokio::test]
async fn a_match_watcher_sees_steps_stored_by_another_node() {
    crate::common::postgres::run("match_across", match_across).await;
}
