#![no_main]
//! Any bytes as lines of the engine protocol (docs/protocol.md), fed to a session one line at a
//! time: never panics, never hangs, and every line that is not blank gets exactly one `ok`
//! (counted once the session has stopped its search and is gone). The first byte chooses whether
//! each search is waited for before the next line.
//!
//! The session runs under small caps so that nothing a line starts can take long: every search
//! stops after about 40 nodes (each node generates up to thousands of placements, so a thousand
//! made most inputs cost tens of milliseconds; 40 still reaches the search's move ordering, table
//! and stop paths), tables are 1 MB (the smallest), one thread, and perft refuses a depth that
//! would expand more than 500 positions.

use std::io::Write;
use std::sync::{Arc, Mutex};

use libfuzzer_sys::fuzz_target;
use zertz_engine::protocol::{Caps, MAX_LINE, Session, Sink, Status};

/// Discards the output, counting the lines that are exactly `ok`.
#[derive(Default)]
struct Counter {
    line: Vec<u8>,
    oks: usize,
}

impl Write for Counter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        for &b in data {
            if b == b'\n' {
                if self.line == b"ok" {
                    self.oks += 1;
                }
                self.line.clear();
            } else if self.line.len() < 3 {
                // A longer line is not `ok` whatever follows.
                self.line.push(b);
            }
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const CAPS: Caps = Caps {
    nodes: Some(40),
    hash_mb: 1,
    threads: 1,
    perft_positions: 500,
};

/// How many `ok` a line must get: none for a blank line, one for anything else.
fn answers(line: &[u8]) -> usize {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.len() > MAX_LINE {
        return 1;
    }
    match std::str::from_utf8(line) {
        Ok(text) if text.trim().is_empty() => 0,
        _ => 1,
    }
}

fuzz_target!(|data: &[u8]| {
    // The first byte says whether to wait for each search to end before the next line (as a GUI
    // does) or to send the next lines at once (which `stop`, `quit` or a refusal meet).
    let Some((&flags, data)) = data.split_first() else {
        return;
    };
    let wait = flags & 1 == 1;
    let counter = Arc::new(Mutex::new(Counter::default()));
    let sink: Sink = counter.clone();
    let mut expected = 0;
    {
        let mut session = Session::with_caps(sink, CAPS);
        for line in data.split(|&b| b == b'\n') {
            expected += answers(line);
            if session.handle_bytes(line) == Status::Quit {
                break;
            }
            if wait {
                session.wait();
            }
        }
        // Dropping the session stops any search and waits for its answer.
    }
    let oks = counter.lock().expect("output lock").oks;
    assert_eq!(oks, expected, "every line that is not blank gets one `ok`");
});
