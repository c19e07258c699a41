//! Invitations: the credential in a link sent to a friend. It takes the invited seat (or a
//! match's invited place) once; the seat then gets a token of its own, so that the link, which
//! may sit in a chat log or a browser's history, no longer acts for the seat. A second use is
//! refused with a sentence (docs/server.md, "Limits").

use zertz::Player;

use crate::games::hub::HubError;
use crate::games::model::{SeatKind, Seated};
use crate::games::room::Refusal;
use crate::token;

/// The sentence that refuses an invitation used before.
pub const USED: &str = "this invitation has been used: the seat is taken (the player who took \
                        it plays with a token of their own)";

/// What a token given to join names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// The token of a seat already held: joining again gives the seat back.
    Seat(Player),
    /// The invitation of a seat, which takes it if nobody holds it.
    Invite(Player),
}

/// Which seat `given` names among the seats' `tokens` and `invites`.
pub fn key_of(
    tokens: &[Option<String>; 2],
    invites: &[Option<String>; 2],
    given: &str,
) -> Result<Key, HubError> {
    let find = |keys: &[Option<String>; 2]| {
        (0..2).find(|&i| {
            keys[i]
                .as_deref()
                .is_some_and(|mine| token::same(mine, given))
        })
    };
    let seat = |i: usize| Player::from_index(i).unwrap_or(Player::One);
    if let Some(i) = find(tokens) {
        return Ok(Key::Seat(seat(i)));
    }
    find(invites)
        .map(|i| Key::Invite(seat(i)))
        .ok_or_else(|| HubError::Forbidden("this token holds no seat of the game".into()))
}

/// The refusal of an invitation whose seat is already held.
pub fn used() -> HubError {
    HubError::Refused(Refusal::NotNow(USED.into()))
}

/// Splits the tokens given for a new game: a human seat with someone seated in it keeps its
/// token (one is made if none was given); a human seat nobody holds turns the token given for
/// it into its invitation. Returns the seats' tokens and the invitations.
pub fn split(
    seats: &[SeatKind; 2],
    seated: &[Option<Seated>; 2],
    given: [Option<String>; 2],
) -> ([Option<String>; 2], [Option<String>; 2]) {
    let mut tokens = [None, None];
    let mut invites = [None, None];
    for (i, t) in given.into_iter().enumerate() {
        if seats[i] != SeatKind::Human {
            continue;
        }
        if seated[i].is_some() {
            tokens[i] = Some(t.unwrap_or_else(token::seat_token));
        } else {
            invites[i] = t;
        }
    }
    (tokens, invites)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invitation_is_not_a_seat_token() {
        let seated = Seated {
            name: "Ann".into(),
            account: None,
        };
        let (tokens, invites) = split(
            &[SeatKind::Human, SeatKind::Human],
            &[Some(seated), None],
            [None, Some("invite".into())],
        );
        assert!(tokens[0].is_some() && tokens[1].is_none());
        assert_eq!(invites, [None, Some("invite".into())]);
        let own = tokens[0].clone().unwrap();
        assert_eq!(
            key_of(&tokens, &invites, &own).unwrap(),
            Key::Seat(Player::One)
        );
        assert_eq!(
            key_of(&tokens, &invites, "invite").unwrap(),
            Key::Invite(Player::Two)
        );
        assert!(matches!(
            key_of(&tokens, &invites, "other"),
            Err(HubError::Forbidden(_))
        ));
        // An engine seat has neither.
        let (tokens, invites) = split(
            &[SeatKind::Human, SeatKind::Engine { level: 1 }],
            &[None, None],
            [Some("a".into()), Some("b".into())],
        );
        assert_eq!(tokens, [None, None]);
        assert_eq!(invites, [Some("a".into()), None]);
    }
}
