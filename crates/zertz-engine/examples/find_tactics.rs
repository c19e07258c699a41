//! Finds forced wins in real games for the tactics suite (`tests/data/tactics.txt`), by proof
//! alone: the engine plays no part in choosing them.
//!
//! ```sh
//! cargo run --release -p zertz-engine --example find_tactics -- MIN_TURNS MAX PATH...
//! cargo run --release -p zertz-engine --example find_tactics -- 3 40 ../shared/boardspace/archive-2025
//! cargo run --release -p zertz-engine --example find_tactics -- rulebook SEED MAX
//! ```
//!
//! For each BoardSpace record (`.sgf` files, folders, `.zip` archives) that ends with a win by a
//! winning set, it looks at the positions 3, 5, 7 and 9 plies before the end with the eventual
//! winner to move and no capture pending, and asks the exhaustive prover of
//! `tests/prover/mod.rs` for the shortest forced win of up to 4 turns (each proof capped at
//! two million positions; a position whose proof runs out is skipped). Wins shorter than
//! `MIN_TURNS` are skipped. It prints up to `MAX` suite lines: `POSITION ; win N ; source, turn ;
//! the winning first moves and what they are`. A first move is a *sacrifice* when it leaves the
//! opponent a capture, and a sacrifice *of little value* when the marbles the opponent can take
//! with that capture are all of a colour whose single-colour set the opponent is farthest from
//! or can no longer complete: the rulebook's idea of forcing the opponent to capture a marble of
//! little value. Deterministic.
//!
//! `rulebook` builds positions of the rulebook's own example instead (its diagram 5: a black
//! marble placed where the opponent must jump it, a marble that gives the opponent no winning
//! set, and then a white placement whose ring removal isolates two white marbles for the win).
//! It plays random games from `SEED` (two random players on 37 rings) and keeps each position
//! where the player to move cannot win at once but wins in 2 turns, and every winning first
//! move is a sacrifice of little value whose capture is the opponent's only move, followed by
//! a winning isolation.

#[path = "../tests/prover/mod.rs"]
mod prover;
#[path = "common/records.rs"]
mod records;

use std::path::Path;

use prover::Prover;
use records::records;
use zertz::notation::official;
use zertz::{Colour, Move, Outcome, Position, WinReason, boardspace};

/// Positions a single proof may expand before it is abandoned.
const PROOF_BUDGET: u64 = 2_000_000;
/// The longest win looked for, in turns.
const MAX_TURNS: u32 = 4;

/// Marbles the player `who` still needs for each single-colour set (`None`: out of reach).
fn single_needs(p: &Position, who: zertz::Player) -> [Option<u32>; 3] {
    let rules = p.rule_set();
    let supply = p.supply();
    Colour::ALL.map(|c| {
        let have = p.captures(who).get(c) as u32;
        let need = (rules.single.get(c) as u32).saturating_sub(have);
        let left = supply.get(c) as u32 + p.marbles(c).count_ones();
        (need <= left).then_some(need)
    })
}

/// What the first move is: an isolation, a sacrifice (of little value or not), or quiet.
fn describe(p: &Position, mv: &Move) -> String {
    let me = p.to_move();
    let mut after = p.clone();
    after.play_unchecked(mv);
    if after.captures(me).total() > p.captures(me).total() {
        return "isolation".into();
    }
    if !after.has_capture() {
        return if mv.is_capture() {
            "capture".into()
        } else {
            "quiet".into()
        };
    }
    // The colours the opponent's possible captures would take.
    let them = me.other();
    let mut taken = [false; 3];
    for reply in after.legal_moves() {
        let mut q = after.clone();
        q.play_unchecked(&reply);
        for c in Colour::ALL {
            if q.captures(them).get(c) > after.captures(them).get(c) {
                taken[c.index()] = true;
            }
        }
    }
    let needs = single_needs(p, them);
    let farthest = needs.iter().flatten().copied().max().unwrap_or(0);
    let little = Colour::ALL
        .iter()
        .filter(|c| taken[c.index()])
        .all(|c| needs[c.index()].is_none_or(|n| n == farthest));
    let colours: Vec<&str> = Colour::ALL
        .iter()
        .filter(|c| taken[c.index()])
        .map(|c| c.name())
        .collect();
    if little {
        format!("sacrifice of little value ({})", colours.join("+"))
    } else {
        format!("sacrifice ({})", colours.join("+"))
    }
}

/// True when `mv`, winning in 2 turns from `p`, is the rulebook's combination: a sacrifice of
/// little value answered by the opponent's only move, a capture, after which every winning
/// move is an isolation.
fn rulebook_combination(p: &Position, mv: &Move) -> bool {
    if !describe(p, mv).starts_with("sacrifice of little value") {
        return false;
    }
    let mut after = p.clone();
    after.play_unchecked(mv);
    let replies = after.legal_moves();
    let [reply] = replies.as_slice() else {
        return false;
    };
    let mut next = after;
    next.play_unchecked(reply);
    let mut prover = Prover::new(p.to_move());
    let wins = prover.winning_moves(&next, 1);
    !wins.is_empty() && wins.iter().all(|w| describe(&next, w) == "isolation")
}

/// The `rulebook` mode: positions of random games that show the rulebook's combination.
fn rulebook(seed: u64, max: usize) {
    let mut rng = zertz_engine::Rng::new(seed);
    let mut found = 0;
    let mut games = 0;
    while found < max && games < 200_000 {
        games += 1;
        let mut p = Position::standard();
        let mut turn = 0;
        while p.winner_by_captures().is_none() {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            turn += 1;
            if !p.has_capture() && turn > 8 {
                let mut prover = Prover::new(p.to_move());
                prover.budget = PROOF_BUDGET;
                if !prover.attacker_wins(&p, 1) && !prover.gave_up() {
                    let mut prover = Prover::new(p.to_move());
                    prover.budget = PROOF_BUDGET;
                    let wins = prover.winning_moves(&p, 2);
                    if !prover.gave_up()
                        && !wins.is_empty()
                        && wins.iter().all(|w| rulebook_combination(&p, w))
                    {
                        let firsts: Vec<String> =
                            wins.iter().map(|m| official::move_text(&p, m)).collect();
                        println!(
                            "{p} ; win 2 ; rulebook combination, random game {games} of seed {seed}, turn {turn} ; {}",
                            firsts.join(", ")
                        );
                        found += 1;
                        break;
                    }
                }
            }
            p.play_unchecked(&moves[rng.below(moves.len())]);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "rulebook") {
        let seed = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
        let max = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
        rulebook(seed, max);
        return;
    }
    let (Some(min), Some(max)) = (
        args.first().and_then(|s| s.parse::<u32>().ok()),
        args.get(1).and_then(|s| s.parse::<usize>().ok()),
    ) else {
        eprintln!("usage: find_tactics MIN_TURNS MAX PATH...");
        std::process::exit(2);
    };
    let mut texts = Vec::new();
    for path in &args[2..] {
        records(Path::new(path), &mut texts);
    }
    eprintln!("{} records", texts.len());
    let mut found = 0;
    for (name, text) in texts {
        let Ok(r) = boardspace::import(&text) else {
            continue;
        };
        let Some(Outcome::Win {
            winner,
            reason: WinReason::WinningSet,
        }) = r.game.outcome()
        else {
            continue;
        };
        let positions = r.game.positions();
        let end = positions.len() - 1;
        for back in [3usize, 5, 7, 9] {
            if back > end {
                break;
            }
            let index = end - back;
            let position = positions[index].clone();
            if position.to_move() != winner || position.has_capture() {
                continue;
            }
            // The shortest forced win, proved; a proof that runs out of budget skips the position.
            let mut shortest = None;
            for turns in 1..=MAX_TURNS {
                let mut prover = Prover::new(winner);
                prover.budget = PROOF_BUDGET;
                if prover.attacker_wins(&position, turns) {
                    shortest = Some(turns);
                    break;
                }
                if prover.gave_up() {
                    break;
                }
            }
            let Some(turns) = shortest else { continue };
            if turns < min {
                continue;
            }
            let mut prover = Prover::new(winner);
            let firsts: Vec<String> = prover
                .winning_moves(&position, turns)
                .iter()
                .map(|m| {
                    format!(
                        "{} {}",
                        official::move_text(&position, m),
                        describe(&position, m)
                    )
                })
                .collect();
            println!(
                "{position} ; win {turns} ; {name} turn {} ; {}",
                index + 1,
                firsts.join(", ")
            );
            found += 1;
            if found >= max {
                return;
            }
        }
    }
}
