//! Random identifiers: public game, match and account ids, and secrets (seat tokens of 192
//! random bits, session and device keys of 256), compared in constant time. Imports nothing of
//! the server.

const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

fn random_text(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    // The operating system's generator; if it ever fails there is no safe fallback.
    getrandom::fill(&mut buf).expect("the operating system's random generator failed");
    // Hex keeps every bit (two characters a byte).
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

/// A public game id: 12 characters from an unambiguous alphabet (about 70 bits).
pub fn game_id() -> String {
    let mut buf = [0u8; 12];
    getrandom::fill(&mut buf).expect("the operating system's random generator failed");
    buf.iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect()
}

/// A public match id (same shape as a game id, prefixed `m`).
pub fn match_id() -> String {
    format!("m{}", game_id())
}

/// A secret seat token: 192 random bits as 48 hex digits.
pub fn seat_token() -> String {
    random_text(24)
}

/// A public account id (same shape as a game id, prefixed `a`).
pub fn account_id() -> String {
    format!("a{}", game_id())
}

/// A study id: `s` and 16 characters of the id alphabet (about 93 bits). The link alone opens
/// a study, so it must not be found by trying ids.
pub fn study_id() -> String {
    let mut buf = [0u8; 16];
    getrandom::fill(&mut buf).expect("the operating system's random generator failed");
    let id: String = buf
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect();
    format!("s{id}")
}

/// A secret key for a session or a device: 256 random bits as 64 hex digits.
pub fn secret_key() -> String {
    random_text(32)
}

/// Whether `id` could be a game or match id (so junk never reaches the database).
pub fn is_plausible_id(id: &str) -> bool {
    (1..=40).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Compares two tokens in time that does not depend on where they differ.
pub fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_distinct() {
        let a = seat_token();
        let b = seat_token();
        assert_eq!(a.len(), 48);
        assert_ne!(a, b);
        assert!(same(&a, &a.clone()));
        assert!(!same(&a, &b));
        assert!(!same(&a, &a[..47]));
        let id = game_id();
        assert_eq!(id.len(), 12);
        assert!(is_plausible_id(&id));
        assert!(!is_plausible_id("../etc"));
        let s = study_id();
        assert_eq!(s.len(), 17);
        assert!(s.starts_with('s') && is_plausible_id(&s));
        assert_ne!(s, study_id());
    }
}
