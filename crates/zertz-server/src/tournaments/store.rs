//! What the tournaments store: events, entries, rounds and their pairings. Every method is
//! one transaction.

use async_trait::async_trait;

use crate::store::{EventRow, GameRow, MatchRow, StoreError};
use crate::tournaments::model::{
    ByeAsked, Chosen, EntryRow, Joined, PairingRow, Played, Stored, TournamentRow, Withdrawn,
};

/// The tournaments' storage.
#[async_trait]
pub trait TournamentStore: Send + Sync {
    /// Stores a new event.
    async fn create_tournament(&self, t: &TournamentRow) -> Result<(), StoreError>;

    /// The event `id` with its entries and pairings, read in one snapshot; `None` when there
    /// is no such event.
    async fn tournament(&self, id: &str) -> Result<Option<Stored>, StoreError>;

    /// Events, newest first, with how many players are entered (not withdrawn); only those
    /// of `status` when given; at most `limit`.
    async fn list_tournaments(
        &self,
        status: Option<&str>,
        limit: i64,
    ) -> Result<Vec<(TournamentRow, i64)>, StoreError>;

    /// Enters `entry` in event `id` if it still registers and has room (an entry withdrawn
    /// before comes back). The event's row is locked meanwhile: two joins never both take the
    /// last place.
    async fn join_tournament(&self, id: &str, entry: &EntryRow) -> Result<Joined, StoreError>;

    /// Enters `entry` in arena `id` while it runs (or is paused), with the next pairing
    /// number, if it has room; a player who left comes back with their number and results.
    async fn join_running(&self, id: &str, entry: &EntryRow) -> Result<Joined, StoreError>;

    /// Withdraws `account` from event `id` unless it is over (registering: the entry no longer
    /// counts; running: the player is paired no more).
    async fn withdraw_from_tournament(
        &self,
        id: &str,
        account: &str,
        now_ms: i64,
    ) -> Result<Withdrawn, StoreError>;

    /// Records what `account` chooses when it is theirs to choose who begins a knockout match's
    /// first game (`gives_first`: the opponent), while event `id` is not over.
    async fn choose_first(
        &self,
        id: &str,
        account: &str,
        gives_first: bool,
        now_ms: i64,
    ) -> Result<Chosen, StoreError>;

    /// Records that `account` sits out round `round` of event `id` for `points` ([`bye::HALF`]
    /// or [`bye::ZERO`]), or with `None` that it no longer asks to; only while the event is not
    /// over and the round not paired, for a player entered and not withdrawn.
    ///
    /// [`bye::HALF`]: crate::tournaments::model::bye::HALF
    /// [`bye::ZERO`]: crate::tournaments::model::bye::ZERO
    async fn ask_bye(
        &self,
        id: &str,
        account: &str,
        round: i64,
        points: Option<&str>,
        now_ms: i64,
    ) -> Result<ByeAsked, StoreError>;

    /// Starts event `id` if it still registers: each entry's rating is set to the one in
    /// `ratings` (when there), the entries not withdrawn get their pairing numbers (highest
    /// rating first, then by name) and the event is running from `now_ms` (its start time
    /// from then on). Returns whether this call
    /// started it (`false`: it was started already, or is gone).
    async fn start_tournament(
        &self,
        id: &str,
        ratings: &[(String, f64)],
        now_ms: i64,
    ) -> Result<bool, StoreError>;

    /// Stores round `round` of event `id`: its pairings, its games (rows and first events),
    /// its matches (a knockout's, whose first games are among `games`) and the event's
    /// current round, all in one transaction, unless that round is
    /// stored already (by another node, or an earlier try): then nothing is written and the
    /// answer is `false`. The games are granted to this node on PostgreSQL.
    async fn store_round(
        &self,
        id: &str,
        round: i64,
        pairings: &[PairingRow],
        games: &[(GameRow, Vec<EventRow>)],
        matches: &[MatchRow],
        now_ms: i64,
    ) -> Result<bool, StoreError>;

    /// Records the result of the event game `game` unless it has one, with what else the game
    /// showed (`played`: berserks, turns); returns the event when this call recorded it
    /// (`None`: not an event's game, or recorded already).
    async fn record_result(
        &self,
        game: &str,
        result: &str,
        played: &Played,
    ) -> Result<Option<String>, StoreError>;

    /// The event `game` is played in, if any.
    async fn tournament_of_game(&self, game: &str) -> Result<Option<String>, StoreError>;

    /// Finishes event `id` if it is running (or registering: an event nobody could play).
    /// Returns whether this call finished it.
    async fn finish_tournament(&self, id: &str, now_ms: i64) -> Result<bool, StoreError>;

    /// Pauses event `id` if it runs (`paused`), or lets it run again if it is paused; whether
    /// this call changed it.
    async fn set_paused(&self, id: &str, paused: bool, now_ms: i64) -> Result<bool, StoreError>;

    /// How many events `account` organises that are not over.
    async fn open_events_of(&self, account: &str) -> Result<i64, StoreError>;

    /// The events to look at: those registering whose start time has come (at `now_ms`),
    /// and those running.
    async fn tournaments_to_run(&self, now_ms: i64) -> Result<Vec<(String, String)>, StoreError>;
}
