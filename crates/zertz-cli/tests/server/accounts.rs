//! Accounts in a real process: a session survives a SIGKILL and a restart, and the database
//! (the SQLite file, the PostgreSQL tables) holds no password and no session or device key. The
//! rest of the accounts' behaviour: crates/zertz-server/tests/behaviour/accounts.rs.

use crate::common::accounts::{Browser, DEVICE};
use crate::common::server::{Db, Server, temp_db};
use zertz_testkit::on_sqlite_and_postgres;

const PASSWORD: &str = "correct horse battery";

/// After a sign-up, neither the password nor the session key (nor the device key) is anywhere
/// in the database's files: only the Argon2id hash and the keys' SHA-256.
#[tokio::test]
async fn the_database_holds_no_password_and_no_session_key() {
    let (dir, db) = temp_db();
    let mut server = Server::start(&db);
    let mut ann = Browser::new(&server);
    let password = "Zq8-unusual-passphrase-77";
    ann.sign_up_ok("Ann", password).await;
    let session = ann.session_key().unwrap().to_string();
    let device = ann.cookies.get(DEVICE).expect("a device key").clone();
    server.kill();
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        bytes.extend(std::fs::read(entry.unwrap().path()).unwrap());
    }
    let holds = |needle: &str| bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
    assert!(holds("$argon2id$v=19$"), "the hash is stored");
    assert!(holds("Ann"));
    for secret in [password, session.as_str(), device.as_str()] {
        assert!(!holds(secret), "{secret} is in the database");
    }
}

async fn a_session_survives_a_restart(db: Db) {
    let mut server = Server::start(&db);
    let mut ann = Browser::new(&server);
    ann.sign_up_ok("Ann", PASSWORD).await;
    server.kill();
    let server = Server::start(&db);
    // The same cookie, a new process.
    let mut again = Browser::new(&server);
    again.cookies = ann.cookies.clone();
    assert_eq!(again.me().await.as_deref(), Some("Ann"));
}

on_sqlite_and_postgres!(a_session_survives_a_restart,);

/// On PostgreSQL the same: after a sign-up, no table holds the password, the session key or
/// the device key, only the hash and the keys' SHA-256.
#[tokio::test]
async fn postgres_holds_no_password_and_no_session_key() {
    crate::common::postgres::run("accounts_secrets", |db| async move {
        let Db::Postgres(url) = &db else {
            unreachable!()
        };
        let server = Server::start(&db);
        let mut ann = Browser::new(&server);
        let password = "Zq8-unusual-passphrase-77";
        ann.sign_up_ok("Ann", password).await;
        let session = ann.session_key().unwrap().to_string();
        let device = ann.cookies.get(DEVICE).expect("a device key").clone();
        use sqlx::Connection;
        let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
        let mut everything = String::new();
        for table in ["accounts", "sessions", "login_devices"] {
            let rows: Vec<String> = sqlx::query_scalar(&format!("SELECT t::text FROM {table} t"))
                .fetch_all(&mut conn)
                .await
                .unwrap();
            everything.push_str(&rows.join("\n"));
        }
        let _ = conn.close().await;
        assert!(everything.contains("$argon2id$v=19$"), "{everything}");
        for secret in [password, session.as_str(), device.as_str()] {
            assert!(!everything.contains(secret), "{secret} is in the database");
        }
    })
    .await;
}
