#![no_main]
//! Any text as a game record: never panics; an accepted record writes back to a record that
//! reads as the same game.

use libfuzzer_sys::fuzz_target;
use zertz::record::Record;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(record) = Record::parse(text) {
        let written = record.to_string();
        let back = Record::parse(&written).expect("a written record parses");
        assert_eq!(back.game.positions(), record.game.positions());
        assert_eq!(back.game.outcome(), record.game.outcome());
    }
});
