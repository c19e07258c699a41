#![no_main]
//! Any text: the position parser never panics, and what it accepts round-trips exactly and has
//! consistent derived state.

use libfuzzer_sys::fuzz_target;
use zertz::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(p) = text.parse::<Position>() {
        let written = p.to_string();
        let back: Position = written.parse().expect("a written position parses");
        assert_eq!(back, p);
        assert_eq!(back.to_string(), written);
        p.check_invariants().expect("invariants");
        let _ = p.outcome();
    }
});
