//! What may be said in a room: plain text up to 500 characters; guests who do not play in the
//! game only the preset phrases (unless the operator allows more), because free anonymous
//! chat draws spam bots.

/// The longest line, in characters.
pub const MAX_CHARS: usize = 500;

/// What a guest who does not play in the game may say (and what the page offers as buttons).
pub const PRESETS: &[&str] = &[
    "Hello!",
    "Good luck!",
    "Have fun!",
    "Well played!",
    "Nice move!",
    "Good game!",
    "Thank you!",
    "Oops!",
    "Bye!",
];

/// The line as stored: without bidirectional controls and zero-width characters
/// (`util::is_invisible`: a line must not read backwards or hide what it says), trimmed, tabs
/// and line breaks made spaces. Refused (with the reason) when empty, too long, or holding
/// other control characters.
pub fn clean(text: &str) -> Result<String, String> {
    let text = crate::util::without_invisible(text);
    let text: String = text
        .trim()
        .chars()
        .map(|c| {
            if matches!(c, '\n' | '\r' | '\t') {
                ' '
            } else {
                c
            }
        })
        .collect();
    if text.is_empty() {
        return Err("an empty message: say something".into());
    }
    let n = text.chars().count();
    if n > MAX_CHARS {
        return Err(format!(
            "a message is at most {MAX_CHARS} characters, not {n}"
        ));
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(format!(
            "a message is plain text: no control characters (U+{:04X})",
            c as u32
        ));
    }
    Ok(text)
}

/// Whether `text` is one of the preset phrases.
pub fn is_preset(text: &str) -> bool {
    PRESETS.contains(&text)
}

/// The refusal of a free line from a guest who does not play.
pub fn presets_only() -> String {
    format!(
        "guests watching a game may only send the preset phrases ({}): log in to chat freely",
        PRESETS.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_plain_text_up_to_500_characters() {
        assert_eq!(clean("  hi\tthere\n ").unwrap(), "hi there");
        assert_eq!(
            clean("<b>bold</b>").unwrap(),
            "<b>bold</b>",
            "kept as text, escaped when shown"
        );
        assert!(clean(" \n ").unwrap_err().contains("empty"));
        assert!(clean(&"é".repeat(500)).is_ok());
        assert!(clean(&"é".repeat(501)).unwrap_err().contains("not 501"));
        assert!(clean("bell\u{7}").unwrap_err().contains("U+0007"));
        // Bidirectional overrides and zero-width characters are taken out.
        assert_eq!(clean("gg \u{202E}olleh\u{200B}").unwrap(), "gg olleh");
        assert!(clean("\u{200B}\u{2067}").unwrap_err().contains("empty"));
        assert!(is_preset("Good luck!"));
        assert!(!is_preset("good luck"));
        assert!(presets_only().contains("Good game!"));
    }
}
