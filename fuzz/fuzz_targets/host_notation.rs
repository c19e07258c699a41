#![no_main]
//! Any text as a move in host notation (and as a host coordinate): never panics; an accepted move
//! is legal and reads back the same.

use libfuzzer_sys::fuzz_target;
use zertz::notation::{self, host};

mod common;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let positions = common::positions();
    let position = &positions[pick as usize % positions.len()];
    let _ = host::parse_coord(position, text);
    let _ = notation::parse_any(position, text);
    if let Ok(mv) = host::parse(position, text) {
        assert!(position.is_legal(&mv));
        let written = host::move_text(position, &mv);
        assert_eq!(
            host::parse(position, &written).expect("written move parses"),
            mv
        );
    }
});
