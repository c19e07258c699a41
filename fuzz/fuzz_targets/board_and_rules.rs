#![no_main]
//! Any text as a board description, a coordinate and a rule set: never panics; accepted ones
//! read back from what they write.

use libfuzzer_sys::fuzz_target;
use zertz::{Coord, Layout, RuleSet};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(layout) = Layout::from_spec(text) {
        let again = Layout::from_spec(&layout.spec()).expect("a written board reads back");
        assert_eq!(again.id(), layout.id());
        assert!(!layout.symmetries().is_empty());
    }
    if let Ok(coord) = text.parse::<Coord>() {
        assert_eq!(
            coord.to_string().parse::<Coord>().expect("coordinate"),
            coord
        );
    }
    if let Ok(rules) = text.parse::<RuleSet>() {
        assert_eq!(
            rules.to_string().parse::<RuleSet>().expect("rule set"),
            rules
        );
    }
});
