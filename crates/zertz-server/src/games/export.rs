//! A game of the server as a record: the project's format, headed by its players, clock and
//! creation time, or BoardSpace's SGF.

use zertz::record::Record;

use crate::games::room::Room;

/// The record of a game as the server exports it: the players' names, the time control, the
/// game's id, the date and the time it was created (ISO 8601, UTC), and `extra` headers.
pub fn record_text(room: &Room, extra: &[(&str, String)]) -> String {
    let names = room.names.clone().map(|n| n.unwrap_or_else(|| "?".into()));
    let created = room.log.first().map_or(0, |(at, _)| *at);
    let mut headers: Vec<(&str, String)> = vec![
        ("Site", "zertz serve".into()),
        ("Game", room.id.clone()),
        ("Player1", names[0].clone()),
        ("Player2", names[1].clone()),
        ("TimeControl", room.settings.clock.describe()),
        ("Date", crate::util::iso_time(created)[..10].to_string()),
        ("Created", crate::util::iso_time(created)),
    ];
    headers.extend(extra.iter().map(|(k, v)| (*k, v.clone())));
    // (`Termination` belongs to the record format, which derives it from the game's outcome:
    // an aborted game has none, so the abort gets a header of its own.)
    if room.aborted {
        let by = room.aborted_by().map_or("the server".to_string(), |p| {
            format!("player {}", p.number())
        });
        headers.push(("Aborted", format!("by {by}")));
    }
    let pairs: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    Record::new(room.game.clone(), &pairs).to_string()
}

/// The game as a BoardSpace SGF (the error says what SGF cannot hold, such as a custom board).
pub fn sgf_text(room: &Room) -> Result<String, String> {
    let info = zertz::boardspace::ExportInfo {
        players: room
            .names
            .clone()
            .map(|n| n.unwrap_or_else(|| "player".into())),
        date: None,
        name: Some(room.id.clone()),
        // A Zertz+xx game's designer is seat 1: the record has seat 2 swap when seat 1 moved
        // first. Other games on custom boards have no designer.
        designer: room.design.as_ref().map(|_| crate::games::design::DESIGNER),
    };
    zertz::boardspace::export(&room.game, &info).map_err(|e| e.to_string())
}
