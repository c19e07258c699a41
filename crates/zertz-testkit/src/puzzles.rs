//! Small puzzle sets for the trainer's tests, built from positions whose wins the prover
//! proves: the solution tree is read out of a checked proof, so every defence is answered.

use std::path::{Path, PathBuf};

use zertz::notation::official;
use zertz::{Move, Position};
use zertz_engine::prove::{Proof, ProofNode, Prover};
use zertz_engine::puzzles::{Attack, Defences, Puzzle, PuzzleSet, Source};

/// Column `a` alone (a1 W, a2-a4 empty), player 1 with 3 white: removing a2 after a placement
/// cuts a1 off, so its white is captured: a win in 1 by isolation, with several winning moves.
pub const ISOLATION_IN_1: &str =
    "37 standard W.../-----/------/-------/------/-----/---- 2/8/10 3/0/0 0/0/0 1";

/// Player 2 wins in 2 through a chain capture (five winning first moves of 96).
pub const CHAIN_IN_2: &str =
    "37 standard --BW/.--.-/-..B.-/--..G.W/---.--/--WB-/---- 0/3/1 1/2/3 2/2/3 2";

/// A position string read.
pub fn position(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The attacker's move at proof node `at` (an `Attack`) from `p`, as a solution tree; the
/// defences that the same answer follows are grouped.
fn attack(proof: &Proof, at: usize, p: &Position) -> Attack {
    let ProofNode::Attack { mv, next } = &proof.nodes[at] else {
        panic!("proof node {at} is not the attacker's");
    };
    let after = p.play(mv).expect("a proof's move is legal");
    let mut then: Vec<Defences> = Vec::new();
    if let ProofNode::Defend { replies } = &proof.nodes[*next] {
        for (reply, node) in replies {
            let next_position = after.play(reply).expect("a proof's reply is legal");
            let answer = attack(proof, *node, &next_position);
            let text = official::move_text(&after, reply);
            match then.iter_mut().find(|g| g.next == answer) {
                Some(g) => g.defences.push(text),
                None => then.push(Defences {
                    defences: vec![text],
                    next: answer,
                }),
            }
        }
    }
    Attack {
        mv: official::move_text(p, mv),
        then,
    }
}

/// Every legal first move of `p` sorted by the prover: (winning, not winning) within `turns`.
pub fn first_moves(p: &Position, turns: u32) -> (Vec<Move>, Vec<Move>) {
    let first = Prover::new(8)
        .first_moves(p, turns, 2_000_000)
        .expect("a position to prove");
    assert!(first.unknown.is_empty(), "every first move decided");
    (first.winning, first.not_winning)
}

/// A puzzle of `id` from `text`: the win in `turns` starting with `mv`, proven.
pub fn puzzle(id: &str, text: &str, mv: &Move, turns: u32, source: Source) -> Puzzle {
    let p = position(text);
    let proof = Prover::new(8)
        .prove_move(&p, mv, turns, 2_000_000)
        .expect("a position to prove")
        .expect("the move wins");
    Puzzle {
        id: id.into(),
        position: text.into(),
        turns,
        solution: attack(&proof, proof.root, &p),
        themes: vec!["isolation".into()],
        source,
    }
}

/// The tests' set: `iso` (win in 1, a BoardSpace game's) and `chain` (win in 2, a server
/// game's), each with the prover's first winning move as its solution.
pub fn test_set() -> PuzzleSet {
    let iso = position(ISOLATION_IN_1);
    let (winning, _) = first_moves(&iso, 1);
    let mut one = puzzle(
        "iso",
        ISOLATION_IN_1,
        &winning[0],
        1,
        Source {
            archive: "boardspace".into(),
            game: "Z-test-game-2006-08-10-1303.sgf".into(),
            move_number: 21,
            played: official::move_text(&iso, &winning[0]),
            found: true,
        },
    );
    one.themes = vec!["isolation".into(), "win-by-colour".into()];
    let chain = position(CHAIN_IN_2);
    let (winning, missed) = first_moves(&chain, 2);
    let mut two = puzzle(
        "chain",
        CHAIN_IN_2,
        &winning[0],
        2,
        Source {
            archive: "server".into(),
            game: "g-chain".into(),
            move_number: 30,
            played: official::move_text(&chain, &missed[0]),
            found: false,
        },
    );
    two.themes = vec!["chain-capture".into()];
    PuzzleSet {
        version: 1,
        puzzles: vec![one, two],
    }
}

/// Writes `set` into `dir` and returns its path.
pub fn write_set(dir: &Path, set: &PuzzleSet) -> PathBuf {
    let path = dir.join("puzzles.json");
    std::fs::write(&path, set.to_json()).expect("write the puzzle set");
    path
}
