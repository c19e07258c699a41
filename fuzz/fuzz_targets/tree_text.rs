#![no_main]
//! Any text as a tree (record with variations, SGF with variations, position string): never
//! panics; an accepted tree writes back to a record, and to SGF where BoardSpace can hold it,
//! that read back as the same tree.

use libfuzzer_sys::fuzz_target;
use zertz::tree::GameTree;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(tree) = GameTree::from_text(text) {
        let record = tree.to_record_text();
        let back = GameTree::from_text(&record).expect("a written record reads");
        assert_eq!(back, tree, "{record}");
        if let Ok(sgf) = tree.to_sgf() {
            // Boards other than 37, 48 and 61 come back in BoardSpace's custom frame, with
            // other coordinates: compare what is played.
            let again = GameTree::from_text(&sgf).expect("a written SGF reads");
            assert_eq!(
                again.main_game().turns().len(),
                tree.main_game().turns().len(),
                "{sgf}"
            );
            assert_eq!(again.depth(), tree.depth(), "{sgf}");
            assert_eq!(again.len(), tree.len(), "{sgf}");
        }
    }
});
