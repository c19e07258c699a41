#![no_main]
//! Any bytes as a BoardSpace record (read as the replay command reads files): never panics, and
//! an imported game is consistent.

use libfuzzer_sys::fuzz_target;
use zertz::boardspace;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // `import` parses the SGF first (every input reaches `sgf::parse`): parsing it here as well
    // doubled the cost of each input for no new path.
    if let Ok(r) = boardspace::import(&text) {
        assert_eq!(r.lines.len(), r.game.turns().len());
        r.game.position().check_invariants().expect("invariants");
        let _ = boardspace::export(&r.game, &boardspace::ExportInfo::default());
    }
});
