//! The prover on hand-made positions: wins it must find, positions it must say have none, a
//! finished position it must refuse, and tampered proofs the checker must reject.

use zertz::{Move, Position};

use super::*;

/// Column `a` alone (a1 W, a2-a4 empty), player 1 with 3 white: removing a2 after any
/// placement cuts a1 off, full, so its white marble is captured: 4 white, a win in 1 by
/// isolation.
const ISOLATION_IN_1: &str =
    "37 standard W.../-----/------/-------/------/-----/---- 2/8/10 3/0/0 0/0/0 1";

/// Column `a` alone: a1 G, a2 W, a3 and a4 empty, player 1 with 3 white: the compulsory jump
/// a1 over a2 takes the fourth white.
const CAPTURE_IN_1: &str =
    "37 standard GW../-----/------/-------/------/-----/---- 2/7/10 3/0/0 0/0/0 1";

fn position(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The moves that win at once, by the rules library alone.
fn immediate_wins(p: &Position) -> Vec<Move> {
    p.legal_moves()
        .into_iter()
        .filter(|m| {
            let after = p.play(m).unwrap();
            after.winner_by_captures() == Some(p.to_move())
                || (after.winner_by_captures().is_none() && !after.has_any_move())
        })
        .collect()
}

fn win_of(report: &Report) -> (u32, &Vec<Move>, bool, &Proof) {
    match &report.verdict {
        Verdict::Win {
            turns,
            moves,
            all_moves_checked,
            proof,
        } => (*turns, moves, *all_moves_checked, proof),
        other => panic!("expected a win, got {other:?}"),
    }
}

#[test]
fn a_win_in_1_by_isolation_with_every_winning_move() {
    let p = position(ISOLATION_IN_1);
    let report = Prover::new(4).prove(&p, 3, 100_000).unwrap();
    let (turns, moves, all, proof) = win_of(&report);
    assert_eq!(turns, 1);
    assert!(all);
    let mut expected = immediate_wins(&p);
    let mut found = moves.clone();
    expected.sort();
    found.sort();
    assert_eq!(found, expected);
    // Some moves do not win (removing a4 isolates nothing), and every winning one isolates.
    assert!(expected.len() < p.legal_moves().len());
    for m in &found {
        let text = zertz::notation::official::move_text(&p, m);
        assert!(text.contains(" x W"), "{text}");
    }
    check(proof, &p).unwrap();
    assert_eq!(proof.main_line().len(), 1);
}

#[test]
fn a_win_in_1_by_a_capture_reaching_the_winning_set() {
    let p = position(CAPTURE_IN_1);
    let report = prove(&p, 2, 10_000).unwrap();
    let (turns, moves, all, proof) = win_of(&report);
    assert_eq!((turns, moves.len(), all), (1, 1, true));
    assert!(moves[0].is_capture());
    check(proof, &p).unwrap();
}

#[test]
fn the_start_has_no_win_within_2() {
    let start = Position::standard();
    let report = Prover::new(16).prove(&start, 2, 10_000_000).unwrap();
    assert!(
        matches!(report.verdict, Verdict::NoWin { within: 2 }),
        "{:?}",
        report.verdict
    );
}

/// The isolation column with player 2 to move: no win in 1 (player 2 holds nothing), but a
/// win in 2 by leaving player 1 without a move: Ga2,a4 forces a1 to jump a2 (player 1's only
/// move), then a white on a1 removing a2 isolates both marbles and leaves no ring at all, so
/// player 1 cannot place and loses.
#[test]
fn a_win_in_2_by_leaving_the_opponent_without_a_move() {
    let p =
        position("37 standard W.../-----/------/-------/------/-----/---- 2/8/10 3/0/0 0/0/0 2");
    let report = Prover::new(4).prove(&p, 1, 1_000_000).unwrap();
    assert!(matches!(report.verdict, Verdict::NoWin { within: 1 }));
    let report = Prover::new(4).prove(&p, 3, 1_000_000).unwrap();
    let (turns, moves, all, proof) = win_of(&report);
    assert_eq!((turns, all), (2, true));
    assert!(!moves.is_empty());
    check(proof, &p).unwrap();
    // The line ends with player 1 to move and no legal move, not with a winning set.
    let mut end = p;
    for m in proof.main_line() {
        end = end.play(&m).unwrap();
    }
    assert_eq!(end.winner_by_captures(), None);
    assert!(!end.has_any_move());
    assert_eq!(end.to_move(), zertz::Player::One);
}

/// Found in random play (seed 7, game 319) and cross-checked by the exhaustive search of
/// `tests/prove.rs`: player 2 wins in 2, the second turn a chain capture of two or more jumps,
/// and the defender has a choice of replies in between.
const CHAIN_IN_2: &str =
    "37 standard --BW/.--.-/-..B.-/--..G.W/---.--/--WB-/---- 0/3/1 1/2/3 2/2/3 2";

#[test]
fn a_win_in_2_through_a_chain_capture() {
    let p = position(CHAIN_IN_2);
    let report = Prover::new(8).prove(&p, 3, 1_000_000).unwrap();
    let (turns, moves, all, proof) = win_of(&report);
    assert_eq!((turns, all), (2, true));
    assert!(!moves.is_empty());
    check(proof, &p).unwrap();
    let line = proof.main_line();
    assert_eq!(line.len(), 3, "{line:?}");
    assert!(
        matches!(line[2], Move::Capture(c) if c.len() >= 2),
        "{line:?}"
    );
    // Every winning first move, replayed: not a win at once (the shortest is 2).
    assert!(immediate_wins(&p).is_empty());
}

#[test]
fn a_tiny_budget_answers_unknown_not_no_win() {
    let start = Position::standard();
    let report = Prover::new(4).prove(&start, 2, 3).unwrap();
    assert!(
        matches!(report.verdict, Verdict::Unknown { nodes } if nodes <= 4),
        "{:?}",
        report.verdict
    );
}

#[test]
fn a_finished_position_and_zero_turns_are_refused() {
    let over =
        position("37 standard W.../-----/------/-------/------/-----/---- 2/8/10 4/0/0 0/0/0 2");
    let err = prove(&over, 2, 1000).unwrap_err();
    assert!(matches!(err, ProveError::GameOver(_)));
    assert!(err.to_string().starts_with("the game is over"), "{err}");
    let err = prove(&position(CAPTURE_IN_1), 0, 1000).unwrap_err();
    assert_eq!(err, ProveError::NoTurns);
}

#[test]
fn the_checker_rejects_tampered_proofs() {
    let p = position(ISOLATION_IN_1);
    let report = Prover::new(4).prove(&p, 1, 100_000).unwrap();
    let (_, _, _, proof) = win_of(&report);
    check(proof, &p).unwrap();
    // A first move that does not win: the line ends and the attacker has not won.
    let loser = p
        .legal_moves()
        .into_iter()
        .find(|m| !immediate_wins(&p).contains(m))
        .unwrap();
    let mut bad = proof.clone();
    bad.nodes[bad.root] = ProofNode::Attack {
        mv: loser,
        next: match bad.nodes[bad.root] {
            ProofNode::Attack { next, .. } => next,
            _ => unreachable!(),
        },
    };
    assert!(matches!(check(&bad, &p), Err(ProofError::NotWon { .. })));
    // The proof for the other player, or with too few turns.
    let mut other = proof.clone();
    other.attacker = other.attacker.other();
    assert!(check(&other, &p).is_err());
    let mut short = proof.clone();
    short.turns = 0;
    assert!(matches!(check(&short, &p), Err(ProofError::TooLong { .. })));
}

/// A win in 2 where the defender has several replies: dropping one of them from the proof
/// must be caught, as must a reply listed twice or a node index out of range.
#[test]
fn the_checker_rejects_a_missing_defence() {
    let (p, proof) = a_win_in_2_with_choices();
    check(&proof, &p).unwrap();
    let (at, replies) = proof
        .nodes
        .iter()
        .enumerate()
        .find_map(|(i, n)| match n {
            ProofNode::Defend { replies } if replies.len() >= 2 => Some((i, replies.clone())),
            _ => None,
        })
        .expect("a defence with a choice");
    let mut missing = proof.clone();
    missing.nodes[at] = ProofNode::Defend {
        replies: replies[1..].to_vec(),
    };
    assert!(
        matches!(check(&missing, &p), Err(ProofError::MissingDefence { .. })),
        "{:?}",
        check(&missing, &p)
    );
    let mut twice = proof.clone();
    let mut doubled = replies.clone();
    doubled.push(replies[0]);
    twice.nodes[at] = ProofNode::Defend { replies: doubled };
    assert!(matches!(
        check(&twice, &p),
        Err(ProofError::BadDefence { .. })
    ));
    let mut dangling = proof.clone();
    let mut broken = replies.clone();
    broken[0].1 = 1_000_000;
    dangling.nodes[at] = ProofNode::Defend { replies: broken };
    assert_eq!(check(&dangling, &p), Err(ProofError::Dangling(1_000_000)));
}

/// The chain position's proof, which has a defence with a choice of replies.
fn a_win_in_2_with_choices() -> (Position, Proof) {
    let p = position(CHAIN_IN_2);
    let report = Prover::new(8).prove(&p, 2, 1_000_000).unwrap();
    let (_, _, _, proof) = win_of(&report);
    (p, proof.clone())
}

#[test]
fn first_moves_sort_every_move_and_find_a_unique_solution() {
    // One legal move, the winning capture: unique.
    let p = position(CAPTURE_IN_1);
    let first = Prover::new(4).first_moves(&p, 1, 10_000).unwrap();
    assert_eq!(first.winning.len(), 1);
    assert!(first.not_winning.is_empty() && first.unknown.is_empty());
    assert_eq!(first.unique(), Some(first.winning[0]));
    // Several winning isolations: no unique solution, and every move is sorted.
    let p = position(ISOLATION_IN_1);
    let first = Prover::new(4).first_moves(&p, 1, 100_000).unwrap();
    assert!(first.winning.len() >= 2);
    assert_eq!(first.unique(), None);
    assert_eq!(
        first.winning.len() + first.not_winning.len(),
        p.legal_moves().len()
    );
    assert_eq!(first.winning.len(), immediate_wins(&p).len());
    // A proof for one given winning move, checked; none for a move that does not win.
    let mut prover = Prover::new(4);
    let proof = prover
        .prove_move(&p, &first.winning[0], 1, 10_000)
        .unwrap()
        .expect("a proof");
    check(&proof, &p).unwrap();
    assert_eq!(proof.first_move(), Some(first.winning[0]));
    assert!(
        prover
            .prove_move(&p, &first.not_winning[0], 1, 10_000)
            .unwrap()
            .is_none()
    );
}

/// `only_winner` stops at another winning move (one `first_moves` also finds winning), says
/// unique when every other move is refuted, and undecided when the budget is too small.
#[test]
fn only_winner_finds_a_second_solution_or_proves_there_is_none() {
    let p = position(CHAIN_IN_2);
    let mut prover = Prover::new(8);
    let all = prover.first_moves(&p, 2, 1_000_000).unwrap();
    assert!(all.unknown.is_empty() && all.winning.len() > 1);
    match prover
        .only_winner(&p, &all.winning[0], 2, 1_000_000)
        .unwrap()
    {
        Uniqueness::Another(m) => assert!(m != all.winning[0] && all.winning.contains(&m)),
        other => panic!("{other:?}"),
    }
    // Column `a` with a1 G and a2 W: the jump is compulsory and the only move, so it is the
    // only winner with nothing to refute.
    let q = position(CAPTURE_IN_1);
    let only = q.legal_moves()[0];
    assert_eq!(
        prover.only_winner(&q, &only, 1, 10).unwrap(),
        Uniqueness::Unique
    );
    assert!(matches!(
        Prover::new(1)
            .only_winner(&p, &all.winning[0], 2, 1)
            .unwrap(),
        Uniqueness::Another(_) | Uniqueness::Undecided(_)
    ));
}
