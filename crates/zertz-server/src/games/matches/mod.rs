//! Best-of-N matches (rules.md 7.4): the first player alternates from game to game, a drawn
//! game is replayed, the first to a majority of wins takes the match, clocks and reserves are
//! reset each game (each game starts its own clocks), and the bribes each player proposed are
//! counted across the match against its limit.
//!
//! A match is followed like a game: its state is pushed to its watchers on every change (see
//! `http::match_socket`), a participant may resign the whole match, and its games export as one text of
//! records. An aborted game is replayed like a draw, but each participant may abort only one
//! game of a match: otherwise one player could abort every game and stall the match for ever.

pub mod routes;
pub mod state;

use std::sync::Arc;

use tokio::sync::broadcast;
use zertz::Player;

use crate::games::ended::GameEnded;
use crate::games::hub::{Hub, HubError, Live, NewGame};
use crate::games::invitation::{self, Key};
use crate::games::matches::state::{
    MatchGameEntry, MatchState, MatchView, NewMatch, Participant, match_row,
};
use crate::games::model::{
    Credential, Event, GameSettings, MatchGame, SeatKind, Seated, seat_number,
};

use crate::games::room::Refusal;
use crate::store::{GameAppend, MatchRow, MatchStep};
use crate::token;
use crate::util::{clean_name, now_ms};

impl Hub {
    async fn save(&self, m: &MatchState, created_ms: i64) -> Result<(), HubError> {
        self.store().save_match(&match_row(m, created_ms)).await?;
        self.match_changed(m);
        Ok(())
    }

    /// Sends the new state of `m` (stored) to its watchers, on this node and the others.
    fn match_changed(&self, m: &MatchState) {
        self.match_watchers.send(&m.id, Arc::new(m.clone()));
        self.announce_match(&m.id);
        if m.winner.is_some() {
            self.match_ended.announce(m.clone());
        }
    }

    /// Tells the other nodes, if any, that match `id` changed: they send it to their watchers.
    fn announce_match(&self, id: &str) {
        if let Some(cluster) = self.cluster() {
            cluster.announce_match(id);
        }
    }

    /// Sends the stored state of match `id` to its watchers (after a change of one of its
    /// games that the match's state does not record, such as a bribe proposed).
    pub(crate) async fn poke_match(&self, id: &str) {
        self.match_stored_elsewhere(id).await;
        self.announce_match(id);
    }

    /// Sends the stored state of match `id` to its watchers on this node (another node
    /// changed it, or one of its games did).
    pub(crate) async fn match_stored_elsewhere(&self, id: &str) {
        if self.match_watchers.is_watched(id)
            && let Ok((m, _)) = self.load_match(id).await
        {
            self.match_watchers.send(id, Arc::new(m));
        }
    }

    /// Subscribes to the changes of match `id`: each is its whole new state.
    pub fn watch_match(&self, id: &str) -> broadcast::Receiver<Arc<MatchState>> {
        self.match_watchers.subscribe(id)
    }

    /// A watcher of match `id` went away (its receiver dropped): forgets the channel when it
    /// was the last.
    pub fn unwatch_match(&self, id: &str) {
        self.match_watchers.forget_if_unwatched(id);
    }

    /// The view of `m` for the holder of `token`, with the bribes left counting those
    /// proposed so far in the game being played.
    pub async fn match_view(&self, m: &MatchState, who: Option<Credential<'_>>) -> MatchView {
        let mut view = m.view(who);
        let current = m.games.last().filter(|g| g.result.is_none());
        if let (Some(left), Some(entry)) = (view.bribes_left.as_mut(), current)
            && let Ok(live) = self.get(&entry.id).await
        {
            let state = live.state.lock().await;
            for seat in 0..2 {
                let participant = if seat == 0 {
                    entry.first
                } else {
                    1 - entry.first
                };
                left[participant] =
                    left[participant].saturating_sub(state.room.bribes_proposed[seat]);
            }
        }
        view
    }

    /// Loads a match.
    pub async fn load_match(&self, id: &str) -> Result<(MatchState, i64), HubError> {
        if !token::is_plausible_id(id) {
            return Err(HubError::NotFound(format!("match {id} not found")));
        }
        let row = self.store().load_match(id).await.map_err(|e| match e {
            crate::store::StoreError::NotFound(_) => {
                HubError::NotFound(format!("match {id} not found"))
            }
            other => other.into(),
        })?;
        let state: MatchState = serde_json::from_str(&row.state)
            .map_err(|e| HubError::Storage(format!("match {id}: {e}")))?;
        Ok((state, row.created_ms))
    }

    /// Creates a match between the creator (participant 0) and an opponent. Returns the match
    /// id, the creator's token and, for an invitation, the opponent's token.
    pub async fn create_match(
        &self,
        new: NewMatch,
    ) -> Result<(String, String, Option<String>), HubError> {
        let NewMatch {
            template,
            best_of,
            creator,
            opponent,
            first,
            bribe_limit,
            open,
        } = new;
        if best_of % 2 == 0 || best_of > 99 {
            return Err(HubError::BadRequest(format!(
                "best_of must be an odd number from 1 to 99, not {best_of}"
            )));
        }
        let _guard = self.match_lock().await;
        let creator_token = token::seat_token();
        let (opponent_name, opponent_token) = match opponent {
            SeatKind::Engine { level } => (Some(format!("Engine level {level}")), None),
            SeatKind::Human => (None, (!open).then(token::seat_token)),
        };
        let m = MatchState {
            id: token::match_id(),
            best_of,
            template,
            players: [
                Participant {
                    kind: SeatKind::Human,
                    name: Some(participant_name(&creator)?),
                    token: Some(creator_token.clone()),
                    invite: None,
                    account: creator.account.clone(),
                },
                Participant {
                    kind: opponent,
                    name: opponent_name,
                    token: None,
                    invite: opponent_token.clone(),
                    account: None,
                },
            ],
            first: first.min(1),
            games: Vec::new(),
            score: [0, 0],
            bribes_used: [0, 0],
            bribe_limit,
            winner: None,
            open,
            resigned: None,
            aborts: [0, 0],
        };
        let created = now_ms();
        self.save(&m, created).await?;
        let id = m.id.clone();
        if m.status() == "live" {
            self.start_next_game(m, created, None).await?;
        }
        Ok((id, creator_token, opponent_token))
    }

    /// Takes the open place of a match (or the invited one, with its token). An account that
    /// already holds a place gets it back, from any device.
    pub async fn join_match(
        &self,
        id: &str,
        token_given: Option<&str>,
        joiner: &Seated,
    ) -> Result<(usize, String), HubError> {
        let _guard = self.match_lock().await;
        let (mut m, created) = self.load_match(id).await?;
        let own = joiner
            .account
            .as_deref()
            .and_then(|a| m.participant(Credential::Account(a)));
        let i = match (token_given, own) {
            (Some(t), _) => {
                let keys = m.players.each_ref().map(|p| p.token.clone());
                let invites = m.players.each_ref().map(|p| p.invite.clone());
                match invitation::key_of(&keys, &invites, t) {
                    Ok(Key::Seat(p)) => p.index(),
                    Ok(Key::Invite(p)) if m.players[p.index()].name.is_some() => {
                        return Err(invitation::used());
                    }
                    Ok(Key::Invite(p)) => p.index(),
                    Err(_) => {
                        return Err(HubError::Forbidden(
                            "this token holds no place in the match".into(),
                        ));
                    }
                }
            }
            (None, Some(i)) => i,
            (None, None) => {
                if !m.open {
                    return Err(HubError::Forbidden(
                        "this match is by invitation: use the link you were sent".into(),
                    ));
                }
                (0..2)
                    .find(|&i| m.players[i].name.is_none())
                    .ok_or_else(|| {
                        HubError::Refused(crate::games::room::Refusal::NotNow(
                            "both places of the match are taken".into(),
                        ))
                    })?
            }
        };
        if m.players[i].name.is_some() {
            return Ok((i, m.players[i].token.clone().unwrap_or_default()));
        }
        if m.template.rated && joiner.account.is_none() {
            return Err(HubError::BadRequest(
                crate::games::model::RATED_NEEDS_ACCOUNTS.into(),
            ));
        }
        if joiner.account.is_some() && m.players[1 - i].account == joiner.account {
            return Err(HubError::Refused(crate::games::room::Refusal::NotNow(
                "you hold the other place of this match: you cannot play yourself".into(),
            )));
        }
        // A place taken gets a token of its own, never the invitation's (nor, for a match
        // stored before invitations were apart, the token its link held).
        let token = token::seat_token();
        m.players[i].name = Some(participant_name(joiner)?);
        m.players[i].token = Some(token.clone());
        m.players[i].account = joiner.account.clone();
        self.save(&m, created).await?;
        if m.status() == "live" && m.games.is_empty() {
            self.start_next_game(m, created, None).await?;
        }
        Ok((i, token))
    }

    /// A match between two account holders, for a tournament's round: both places taken,
    /// participant 0 moving first in game 1, best of `best_of`. Nothing is stored: the round
    /// stores the match's row and its first game with its pairings in one transaction, then
    /// [`Hub::open_event_match`] sets the game going.
    pub(crate) fn prepare_event_match(
        &self,
        template: GameSettings,
        players: [Seated; 2],
        best_of: u32,
        bribe_limit: u32,
    ) -> Result<(MatchState, MatchRow, NewGame), HubError> {
        // An engine level entered in the event (`accounts::engine`) plays its seats itself.
        let participant = |p: &Seated| -> Result<Participant, HubError> {
            let level = p
                .account
                .as_deref()
                .and_then(crate::accounts::engine::level_of);
            Ok(Participant {
                kind: level.map_or(SeatKind::Human, |level| SeatKind::Engine { level }),
                name: Some(participant_name(p)?),
                token: level.is_none().then(token::seat_token),
                invite: None,
                account: p.account.clone(),
            })
        };
        let mut m = MatchState {
            id: token::match_id(),
            best_of,
            template,
            players: [participant(&players[0])?, participant(&players[1])?],
            first: 0,
            games: Vec::new(),
            score: [0, 0],
            bribes_used: [0, 0],
            bribe_limit,
            winner: None,
            open: false,
            resigned: None,
            aborts: [0, 0],
        };
        let new = self.prepare_next_game(&mut m)?;
        let row = match_row(&m, now_ms());
        Ok((m, row, new))
    }

    /// Sets going the first game of a match a tournament's round stored.
    pub(crate) async fn open_event_match(&self, m: &MatchState, first_game: NewGame) {
        self.open_game(first_game).await;
        self.match_changed(m);
    }

    /// The next game of `m`, prepared (not stored), and entered in `m`'s games.
    fn prepare_next_game(&self, m: &mut MatchState) -> Result<NewGame, HubError> {
        let first = m.next_first();
        let order = [first, 1 - first];
        let mut settings = m.template.clone();
        settings.seats = order.map(|i| m.players[i].kind.clone());
        settings.open = false;
        settings.match_game = Some(MatchGame {
            match_id: m.id.clone(),
            number: m.games.len() as u32 + 1,
            bribes_used: order.map(|i| m.bribes_used[i]),
            bribe_limit: m.bribe_limit,
            aborted_before: order.map(|i| m.aborts[i] > 0),
        });
        let seated = order.map(|i| match m.players[i].kind {
            SeatKind::Human => m.players[i].name.clone().map(|name| Seated {
                name,
                account: m.players[i].account.clone(),
            }),
            SeatKind::Engine { .. } => None,
        });
        let tokens = order.map(|i| m.players[i].token.clone());
        let new = self.prepare_game(settings, seated, tokens, Some(m.id.clone()))?;
        m.games.push(MatchGameEntry {
            id: new.row.id.clone(),
            first,
            result: None,
            winner: None,
        });
        Ok(new)
    }

    /// Starts the next game of `m`; with `ended`, the game that just ended gets its `next_game`
    /// event in the same transaction (see [`Hub::store_match_step`]).
    async fn start_next_game(
        &self,
        mut m: MatchState,
        created: i64,
        ended: Option<&std::sync::Arc<Live>>,
    ) -> Result<String, HubError> {
        // The match's new state, the game and the previous game's `next_game` are stored in one
        // transaction: a crash leaves either all of them or none (and then `resume_matches`
        // takes the step again).
        let new = self.prepare_next_game(&mut m)?;
        let game_id = new.row.id.clone();
        self.store_match_step(match_row(&m, created), new, ended)
            .await?;
        self.match_changed(&m);
        Ok(game_id)
    }

    /// Hears a finished game (subscribed in `app`): a game of a match is scored and the match
    /// goes on, in a task of its own; other games are not the matches' business.
    pub fn game_ended(self: &Arc<Self>, ended: &Arc<GameEnded>) {
        let room = &ended.room;
        let Some(m) = room.settings.match_game.clone() else {
            return;
        };
        if room.next_game.is_some() {
            return;
        }
        let hub = Arc::clone(self);
        let game = room.id.clone();
        tokio::spawn(async move {
            let followed = match hub.get(&game).await {
                Ok(live) => hub.match_game_over(&m.match_id, &live).await,
                Err(e) => Err(e),
            };
            if let Err(e) = followed {
                tracing::warn!(game = %game, "match follow-up failed: {e}");
            }
        });
    }

    /// Called when a game of a match ends: scores it, and starts the next game or ends the
    /// match. The finished game gets a `next_game` event pointing to its successor.
    pub(crate) async fn match_game_over(
        &self,
        match_id: &str,
        live: &Live,
    ) -> Result<(), HubError> {
        let _guard = self.match_lock().await;
        let (mut m, created) = self.load_match(match_id).await?;
        let Some(k) = m.games.iter().position(|g| g.id == live.id()) else {
            return Ok(());
        };
        if m.games[k].result.is_some() {
            return Ok(());
        }
        let room = self.room(live.id()).await?;
        let first = m.games[k].first;
        let seat_to_participant = |seat: usize| if seat == 0 { first } else { 1 - first };
        let winner = room
            .game
            .outcome()
            .and_then(|o| o.winner())
            .map(|p| seat_to_participant(p.index()));
        m.games[k].result = room.result();
        m.games[k].winner = winner;
        for p in zertz::Player::BOTH {
            m.bribes_used[seat_to_participant(p.index())] += room.bribes_proposed[p.index()];
        }
        if let Some(by) = room.aborted_by() {
            m.aborts[seat_to_participant(by.index())] += 1;
        }
        if let Some(w) = winner {
            m.score[w] += 1;
            // (A match resigned meanwhile keeps its winner.)
            if m.score[w] > m.best_of / 2 && m.winner.is_none() {
                m.winner = Some(w);
            }
        }
        if m.winner.is_some() {
            self.save(&m, created).await?;
            return Ok(());
        }
        // Aborted games and draws are replayed; the match goes on.
        let live = self.get(live.id()).await?;
        self.start_next_game(m, created, Some(&live)).await?;
        Ok(())
    }

    /// Matches whose current game ended while the server was down get their next game.
    pub async fn resume_matches(&self) -> Result<(), HubError> {
        for row in self.store().list_matches(Some("live"), i64::MAX).await? {
            let (m, created) = self.load_match(&row.id).await?;
            match m.games.last() {
                None => {
                    self.start_next_game(m, created, None).await?;
                }
                Some(g) if g.result.is_none() => {
                    let live = self.get(&g.id).await?;
                    if self.room(&g.id).await?.is_over() {
                        self.match_game_over(&m.id, &live).await?;
                    } else if let Some(previous) = m.games.iter().rev().nth(1) {
                        // Matches stored before the step was one transaction may have lost
                        // the previous game's pointer to this one: put it back.
                        let before = self.get(&previous.id).await?;
                        if self.room(&previous.id).await?.next_game.is_none() {
                            self.append_event(
                                &before,
                                Event::NextGame {
                                    game_id: g.id.clone(),
                                },
                            )
                            .await?;
                        }
                    }
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// The holder of `token` resigns match `id`: the opponent wins it. The game being played
    /// is resigned too, and both are stored in one transaction (the match's new state and the
    /// game's `resigned` event), so that a crash cannot leave a finished match with a game
    /// still being played, nor a resigned game whose match goes on.
    pub async fn resign_match(
        &self,
        id: &str,
        who: Credential<'_>,
    ) -> Result<MatchState, HubError> {
        let _guard = self.match_lock().await;
        let (mut m, created) = self.load_match(id).await?;
        let who = m.participant(who).ok_or_else(|| {
            HubError::Forbidden(match who {
                Credential::Token(_) => "this token holds no place in the match".into(),
                Credential::Account(_) => "your account holds no place in the match".into(),
            })
        })?;
        if m.winner.is_some() {
            return Err(Refusal::NotNow("the match is over".into()).into());
        }
        if m.status() != "live" {
            return Err(Refusal::NotNow(
                "the match has not started: there is no opponent to resign to".into(),
            )
            .into());
        }
        let other = 1 - who;
        m.winner = Some(other);
        m.resigned = Some(who);
        let current = m
            .games
            .len()
            .checked_sub(1)
            .filter(|&k| m.games[k].result.is_none());
        let Some(k) = current else {
            self.save(&m, created).await?;
            return Ok(m);
        };
        let live = self.get(&m.games[k].id).await?;
        let mut state = live.state.lock().await;
        if state.room.is_over() {
            // The game ended a moment ago; its follow-up (waiting for the match's lock)
            // records it and keeps this winner.
            drop(state);
            self.save(&m, created).await?;
            return Ok(m);
        }
        let first = m.games[k].first;
        let seat = if first == who {
            Player::One
        } else {
            Player::Two
        };
        let change = self.prepare_change(
            &state,
            vec![Event::Resigned {
                seat: seat_number(seat),
            }],
            None,
        )?;
        m.games[k].result = change.next.result();
        m.games[k].winner = Some(other);
        m.score[other] += 1;
        for p in Player::BOTH {
            let participant = if p == Player::One { first } else { 1 - first };
            m.bribes_used[participant] += change.next.bribes_proposed[p.index()];
        }
        let step = MatchStep {
            state: match_row(&m, created),
            new_game: None,
            append: Some(GameAppend {
                game: live.id().to_string(),
                events: change.rows.clone(),
                update: change.update.clone(),
            }),
        };
        self.store().advance_match(&step).await?;
        self.publish(&live, &mut state, change);
        drop(state);
        self.match_changed(&m);
        Ok(m)
    }

    /// The records of every game of match `id`, in order, one after the other (each begins
    /// with its `[Board …]` header and carries `Match` and `MatchGame` headers).
    pub async fn match_record(&self, id: &str) -> Result<String, HubError> {
        let (m, _) = self.load_match(id).await?;
        let mut text = String::new();
        for (k, g) in m.games.iter().enumerate() {
            let room = self.room(&g.id).await?;
            if k > 0 {
                text.push('\n');
            }
            text.push_str(&crate::games::export::record_text(
                &room,
                &[("Match", m.id.clone()), ("MatchGame", (k + 1).to_string())],
            ));
        }
        Ok(text)
    }
}

/// The name of a new participant: a guest's as given (trimmed, checked), an account's as it is.
fn participant_name(who: &Seated) -> Result<String, HubError> {
    match who.account {
        Some(_) => Ok(who.name.clone()),
        None => clean_name(&who.name).map_err(HubError::BadRequest),
    }
}
