#![no_main]
//! Any text as a move in official notation, in several positions: never panics; an accepted move
//! is legal and its notation reads back as the same move.

use libfuzzer_sys::fuzz_target;
use zertz::notation::official;

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
    if let Ok(mv) = official::parse(position, text) {
        assert!(position.is_legal(&mv));
        let written = official::move_text(position, &mv);
        assert_eq!(
            official::parse(position, &written).expect("written move parses"),
            mv
        );
    }
});
