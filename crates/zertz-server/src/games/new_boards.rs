//! Custom boards new to the server, per client (docs/server.md, "Limits per client").
//!
//! A custom board's layout is built once for all the games and positions that hold it at the
//! same time, and freed when the last of them goes (a game leaving memory when idle, a request
//! answered). What a client sends (a game to create, a position, a record to import, a study)
//! is read within an allowance of boards the process does not hold yet
//! ([`zertz::layout::with_new_layout_allowance`]), charged to that client: at most `per_hour`
//! new shapes an hour per client (an account, or an address for guests), and
//! [`ADDRESS_SHARE`](crate::accounts::viewer::ADDRESS_SHARE) times as many per address (its
//! accounts and guests together), so that no client makes the server build layouts without
//! end. A board held at that moment (an official one,
//! or one of a game in memory) costs nothing, and the server's own stored games are read
//! outside any allowance, so a finished custom game is always readable. There is no cap for
//! the whole process: one client spending its allowance cannot refuse another's board.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::accounts::viewer::Payer;

/// How long a client's count of new boards runs before it starts again from zero.
const WINDOW: Duration = Duration::from_secs(3600);

/// The count of one client's new boards in its current window.
#[derive(Clone, Copy, Debug)]
struct Window {
    since: Instant,
    count: usize,
}

/// The allowance of new custom boards of every client.
#[derive(Debug)]
pub struct NewBoards {
    per_hour: usize,
    used: Mutex<HashMap<String, Window>>,
}

impl NewBoards {
    /// At most `per_hour` new boards an hour per client (0: no limit).
    pub fn new(per_hour: usize) -> NewBoards {
        NewBoards {
            per_hour,
            used: Mutex::new(HashMap::new()),
        }
    }

    /// The allowance an hour (0: no limit).
    pub fn per_hour(&self) -> usize {
        self.per_hour
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Window>> {
        self.used.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` (synchronous: reading what `payer` sent) admitting the new boards `payer`
    /// may still bring, and its address (`ADDRESS_SHARE` times as many), and charges both
    /// those `f` brought. When `f` asked for one more, the refusal (for a 429) says which limit
    /// and when to come back; `f`'s own answer is dropped.
    pub fn run<T>(&self, payer: &Payer, f: impl FnOnce() -> T) -> Result<T, String> {
        if self.per_hour == 0 {
            return Ok(f());
        }
        let now = Instant::now();
        let keys = payer.keys(self.per_hour);
        let left = {
            let mut used = self.lock();
            // Forget the windows that have run out, now and then, so the map stays small.
            if used.len() > 4096 {
                used.retain(|_, w| now.duration_since(w.since) < WINDOW);
            }
            keys.iter()
                .map(|(key, limit)| limit.saturating_sub(current(&mut used, key, now).count))
                .min()
                .unwrap_or(0)
        };
        let (out, new) = zertz::layout::with_new_layout_allowance(left, f);
        let mut used = self.lock();
        let mut refusal = None;
        for (index, (key, limit)) in keys.iter().enumerate() {
            let w = current(&mut used, key, now);
            w.count += new.registered;
            if new.refused && refusal.is_none() && w.count >= *limit {
                let wait = WINDOW.saturating_sub(now.duration_since(w.since));
                let whose = if index == 0 {
                    format!(
                        "you have brought {} boards this server did not know within the hour, \
                         at most {limit} for one player (or one address for guests)",
                        w.count
                    )
                } else {
                    format!(
                        "your address has brought {} boards this server did not know within \
                         the hour, at most {limit} for one address, its players and guests \
                         together",
                        w.count
                    )
                };
                refusal = Some(format!(
                    "too many new custom boards: {whose}; play on a board already known, or \
                     ask again in about {} min",
                    wait.as_secs().div_ceil(60).max(1)
                ));
            }
        }
        match refusal {
            Some(why) => Err(why),
            None if new.refused => Err("too many new custom boards: ask again later".into()),
            None => Ok(out),
        }
    }
}

/// The window of `key` at `now`, started anew when the last one has run out.
fn current<'a>(used: &'a mut HashMap<String, Window>, key: &str, now: Instant) -> &'a mut Window {
    let w = used.entry(key.to_string()).or_insert(Window {
        since: now,
        count: 0,
    });
    if now.duration_since(w.since) >= WINDOW {
        *w = Window {
            since: now,
            count: 0,
        };
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use zertz::Layout;

    #[test]
    fn each_client_has_its_own_allowance_and_known_boards_are_free() {
        let boards = NewBoards::new(2);
        let (a, b) = (Payer::named("a"), Payer::named("b"));
        let spec = |n: u8| format!("s1,t1,s{}", n + 2);
        // Held, as a game in memory holds its board.
        let mut held = Vec::new();
        for n in 0..2 {
            held.push(
                boards
                    .run(&a, || Layout::from_spec(&spec(n)))
                    .unwrap()
                    .unwrap(),
            );
        }
        let refused = boards.run(&a, || Layout::from_spec(&spec(2))).unwrap_err();
        assert!(refused.contains("at most 2"), "{refused}");
        // A board held costs nothing; another client has its own allowance.
        assert!(boards.run(&a, || Layout::from_spec(&spec(0))).is_ok());
        assert!(boards.run(&a, || Layout::from_spec("61")).is_ok());
        assert!(
            boards
                .run(&b, || Layout::from_spec(&spec(2)))
                .unwrap()
                .is_ok()
        );
        // A board no longer held is gone, and new again if it comes back.
        held.clear();
        assert!(boards.run(&a, || Layout::from_spec(&spec(0))).is_err());
        // No limit at all with 0.
        let open = NewBoards::new(0);
        for n in 3..6 {
            assert!(
                open.run(&a, || Layout::from_spec(&spec(n)))
                    .unwrap()
                    .is_ok()
            );
        }
    }

    /// Fresh accounts at one address share its allowance: five of them with 2 each bring 8
    /// boards in all (the address's 4 × 2), not 10; the ninth is refused naming the address.
    #[test]
    fn an_address_brings_its_share_and_no_more() {
        let boards = NewBoards::new(2);
        let spec = |n: u8| format!("s1,t1,s{}", n + 2);
        let mut held = Vec::new();
        let mut refused = Vec::new();
        for k in 0..5u8 {
            let fake = Payer {
                client: format!("account:fake{k}"),
                address: Some(std::net::IpAddr::from([203, 0, 113, 7])),
            };
            for n in 0..2 {
                match boards.run(&fake, || Layout::from_spec(&spec(k * 2 + n))) {
                    Ok(layout) => held.push(layout.unwrap()),
                    Err(why) => refused.push(why),
                }
            }
        }
        assert_eq!((held.len(), refused.len()), (8, 2), "{refused:?}");
        assert!(
            refused[0].contains("your address has brought 8"),
            "{}",
            refused[0]
        );
    }
}
