//! The canonical key (`zertz::symmetry`) on real positions: the BoardSpace records of
//! `../shared/boardspace/loose` (when the shared archive is there) and random games on every
//! official board. The key must be the same for every symmetric image of a position, differ
//! between positions that no symmetry relates (checked against canonical forms built by brute
//! force), and moves must map to the canonical frame and back.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use zertz::boardspace::import;
use zertz::symmetry::{Frame, Key, Tracker, inverse, map_move};
use zertz::{BoardKind, Game, Layout, Move, Position, RuleSet, Rules};

/// Seconds to minutes of computing and nothing to wait for: CI runs the tests of modules named
/// `cpu_bound` beside the other test binaries, which mostly wait (`.ci/run`).
mod cpu_bound {
    use super::*;

    /// The games of the loose BoardSpace records, if the shared archive is present.
    fn boardspace_games() -> Vec<Game> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/boardspace/loose");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("no shared archive at {}: random games only", dir.display());
            return Vec::new();
        };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        paths
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
            .filter_map(|p| std::fs::read(p).ok())
            .filter_map(|bytes| import(&String::from_utf8_lossy(&bytes)).ok())
            .map(|r| r.game)
            .collect()
    }

    /// Random games (a fixed linear congruential sequence) on every official board, both rule sets.
    fn random_games(per_board: usize) -> Vec<Game> {
        let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize
        };
        let mut out = Vec::new();
        for kind in BoardKind::OFFICIAL {
            for i in 0..per_board {
                let set = if i % 2 == 0 {
                    RuleSet::STANDARD
                } else {
                    RuleSet::BLITZ
                };
                let mut game = Game::new(
                    Layout::official(kind),
                    Rules {
                        set,
                        ..Rules::default()
                    },
                );
                for _ in 0..60 {
                    let moves = game.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[next() % moves.len()];
                    if game.play(&m).is_err() {
                        break;
                    }
                }
                out.push(game);
            }
        }
        out
    }

    /// The canonical form by brute force: the smallest position string over the symmetries.
    fn canonical_text(p: &Position) -> String {
        p.layout()
            .symmetries()
            .iter()
            .map(|s| p.transformed(s).to_string())
            .min()
            .unwrap_or_default()
    }

    #[test]
    fn keys_are_invariant_and_do_not_collide() {
        let mut games = boardspace_games();
        let from_archive = games.len();
        games.extend(random_games(250));
        let mut by_key: HashMap<Key, String> = HashMap::new();
        let mut by_text: HashMap<String, Key> = HashMap::new();
        let mut positions = 0;
        for game in &games {
            let mut tracker = Tracker::new(game.start());
            for p in game.positions() {
                tracker.advance(p);
                let frame = tracker.frame(p);
                // The incremental hashes equal the ones computed from scratch.
                assert_eq!(frame, Frame::of(p), "{p}");
                for s in p.layout().symmetries() {
                    let image = p.transformed(s);
                    assert_eq!(
                        Frame::of(&image).key(),
                        frame.key(),
                        "{p} under {}",
                        s.name()
                    );
                }
                let text = canonical_text(p);
                // The canonical frame gives the canonical form (up to the brute force's choice).
                assert_eq!(canonical_text(&frame.canonical(p)), text);
                if let Some(old) = by_key.insert(frame.key(), text.clone()) {
                    assert_eq!(old, text, "two positions share key {}", frame.key());
                }
                if let Some(old) = by_text.insert(text, frame.key()) {
                    assert_eq!(old, frame.key());
                }
                positions += 1;
            }
        }
        eprintln!(
            "{positions} positions of {} games ({from_archive} from BoardSpace), {} classes",
            games.len(),
            by_key.len()
        );
        assert!(by_key.len() > 10_000, "a large sample: {}", by_key.len());
        assert_eq!(by_key.len(), by_text.len());
    }

    #[test]
    fn transpositions_share_a_key() {
        let p = Position::standard();
        let play = |p: &Position, texts: &[&str]| {
            texts.iter().fold(p.clone(), |p, t| {
                p.play(&zertz::notation::official::parse(&p, t).unwrap())
                    .unwrap()
            })
        };
        let a = play(&p, &["Wa2,g1", "Gd7,a4", "Bg3,d1", "We1,b1"]);
        let b = play(&p, &["Bg3,d1", "We1,b1", "Wa2,g1", "Gd7,a4"]);
        assert_eq!(a, b);
        assert_eq!(Frame::of(&a).key(), Frame::of(&b).key());
        // The player to move, the supply, the rule set and the board all count.
        let c = play(&p, &["Wa2,g1", "Gd7,a4", "Bg3,d1"]);
        assert_ne!(Frame::of(&c).key(), Frame::of(&a).key());
        let blitz = Position::new(Layout::standard(), RuleSet::BLITZ);
        assert_ne!(Frame::of(&blitz).key(), Frame::of(&p).key());
        let big = Position::new(Layout::official(BoardKind::Rings61), RuleSet::STANDARD);
        assert_ne!(Frame::of(&big).key(), Frame::of(&p).key());
    }

    #[test]
    fn moves_map_to_the_canonical_frame_and_back() {
        let mut games = random_games(40);
        games.extend(boardspace_games().into_iter().take(100));
        let mut checked = 0;
        for game in &games {
            for p in game.positions().iter().skip(1).step_by(5) {
                let l = p.layout();
                let frame = Frame::of(p);
                let canonical = frame.canonical(p);
                let legal: HashSet<Move> = canonical.legal_moves().into_iter().collect();
                // The symmetries that fix the position (where several bring it to the canonical
                // form, a move comes back as one of its equivalents).
                let fixing: Vec<_> = l
                    .symmetries()
                    .iter()
                    .filter(|s| p.transformed(s) == *p)
                    .collect();
                assert_eq!(fixing.len(), frame.equivalent_count(), "{p}");
                let images: Vec<HashSet<Move>> = l
                    .symmetries()
                    .iter()
                    .map(|s| p.transformed(s).legal_moves().into_iter().collect())
                    .collect();
                for m in p.legal_moves().iter() {
                    let c = frame.to_canonical(m);
                    assert!(legal.contains(&c), "{p}: canonical move not legal there");
                    let back = frame.from_canonical(&c);
                    if fixing.len() == 1 {
                        assert_eq!(back, *m, "{p}");
                    } else {
                        assert!(fixing.iter().any(|s| map_move(l, s, m) == back), "{p}");
                    }
                    // Every symmetry and its inverse are exact inverses on moves.
                    for (k, s) in l.symmetries().iter().enumerate() {
                        let there = map_move(l, s, m);
                        let inv = &l.symmetries()[inverse(l, k)];
                        assert_eq!(map_move(l, inv, &there), *m);
                        assert!(images[k].contains(&there));
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
