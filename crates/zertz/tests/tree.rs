//! Trees of variations: random trees (random legal moves, random branching, comments, promotions
//! and deletions) through the record format and SGF and back unchanged; a sample of the shared
//! BoardSpace archive through the tree and back to the same main line; bad input refused with
//! the place and the token.

use std::io::Read;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use proptest::test_runner::Config;
use zertz::boardspace::import;
use zertz::tree::{GameTree, NodeId, Step, TextFormat};
use zertz::*;

/// A small generator driven by proptest's seed, so that a failing case shrinks to its seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// Comment texts with what the formats must escape: `}` and `\` in records, `]` and `\` in
/// SGF, parentheses, brackets, quotes, line breaks, and letters outside ASCII.
const COMMENTS: [&str; 8] = [
    "a good move",
    "closes } and \\ backslash",
    "SGF ] bracket \\] and [ open",
    "(a variation? no) {braces}",
    "two\nlines",
    "ÈRTZ — ça marche ✓",
    "\"quoted\" x d1Gd3",
    "(bribe 1/0/0 rejected) is only a comment here",
];

/// A random tree: `steps` additions at random nodes (deeper nodes more often), each a random
/// legal move or, with bribes on, sometimes a bribe; random comments, promotions and
/// deletions.
fn random_tree(start: Position, rules: Rules, seed: u64, steps: usize) -> GameTree {
    let mut rng = Rng(seed);
    let mut tree = GameTree::new(start, rules);
    let mut at = tree.root();
    for _ in 0..steps {
        // Mostly go on from the last node; sometimes branch from a random node.
        if rng.below(4) == 0 {
            let ids = tree.ids();
            at = ids[rng.below(ids.len())];
        }
        let game = tree.game_at(at).unwrap();
        let moves = game.legal_moves();
        let bribe_ok = rules.bribes && rng.below(5) == 0;
        let step = if bribe_ok {
            let b = Marbles::new(rng.below(2) as u8, rng.below(2) as u8, 0);
            let mut trial = game.clone();
            let accepted = rng.below(2) == 0;
            if trial.propose_bribe(b).is_ok() && trial.answer_bribe(accepted).is_ok() {
                Some(Step::Bribe { bribe: b, accepted })
            } else {
                None
            }
        } else {
            None
        };
        let step = match step {
            Some(s) => s,
            None if moves.is_empty() => {
                at = tree.root();
                continue;
            }
            None => Step::Move(moves[rng.below(moves.len())]),
        };
        at = tree.add(at, step).unwrap();
        match rng.below(12) {
            0 | 1 => {
                let c = COMMENTS[rng.below(COMMENTS.len())];
                tree.set_comment(at, c).unwrap();
            }
            2 => {
                tree.promote(at).unwrap();
            }
            3 if rng.below(3) == 0 && at != tree.root() => {
                let parent = tree.node(at).unwrap().parent().unwrap();
                tree.delete(at).unwrap();
                assert!(tree.node(at).is_none());
                at = parent;
            }
            _ => {}
        }
    }
    if rng.below(3) == 0 {
        tree.set_comment(tree.root(), COMMENTS[rng.below(COMMENTS.len())])
            .unwrap();
    }
    tree
}

fn names(tree: &mut GameTree, seed: u64) {
    tree.set_header("Player1", &format!("ann{}", seed % 1000))
        .unwrap();
    tree.set_header("Player2", &format!("ben{}", seed % 777))
        .unwrap();
}

/// A random declared ending, when the main line is not over by the rules.
fn random_ending(tree: &mut GameTree, seed: u64, sgf: bool) {
    if tree.main_game().is_over() {
        return;
    }
    let winner = if seed.is_multiple_of(2) {
        Player::One
    } else {
        Player::Two
    };
    let reasons = if sgf {
        &[WinReason::Resignation][..]
    } else {
        &[WinReason::Resignation, WinReason::Time, WinReason::Forfeit][..]
    };
    let ending = match seed % 5 {
        0 => Some(Outcome::Draw(DrawReason::Agreement)),
        1 | 2 => Some(Outcome::Win {
            winner,
            reason: reasons[(seed as usize / 5) % reasons.len()],
        }),
        _ => None,
    };
    tree.set_ending(ending).unwrap();
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn record_text_round_trips(seed in any::<u64>(), steps in 0usize..120, board in 0usize..6, bribes: bool, forbid: bool) {
        let layout = Layout::official(BoardKind::OFFICIAL[board]);
        let rules = Rules {
            bribes,
            repetition: if forbid { Repetition::Forbidden } else { Repetition::ThreefoldDraw },
            ..Rules::default()
        };
        // With bribes on, both players hold a white and a grey so that bribes can be offered.
        let start = if bribes {
            let mut s = Position::new(layout, RuleSet::STANDARD).setup();
            s.supply = Marbles::new(4, 6, 10);
            s.captures = [Marbles::new(1, 1, 0), Marbles::new(1, 1, 0)];
            Position::from_setup(s).unwrap()
        } else {
            Position::new(layout, RuleSet::STANDARD)
        };
        let mut tree = random_tree(start, rules, seed, steps);
        names(&mut tree, seed);
        tree.set_header("Event", "a \"quoted\" \\ event").unwrap();
        random_ending(&mut tree, seed, false);
        let text = tree.to_record_text();
        let back = GameTree::from_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        prop_assert_eq!(&back, &tree, "{}", text);
        prop_assert_eq!(&back.to_record_text(), &text);
        // The main line alone reads as a record of the same game.
        let record = zertz::record::Record::parse(&text).unwrap();
        let main = tree.main_game();
        prop_assert_eq!(record.game.positions(), main.positions());
        prop_assert_eq!(record.game.outcome(), main.outcome());
    }

    #[test]
    fn sgf_round_trips(seed in any::<u64>(), steps in 0usize..120, board in 0usize..3) {
        let kind = [BoardKind::Rings37, BoardKind::Rings48, BoardKind::Rings61][board];
        let start = Position::new(Layout::official(kind), RuleSet::STANDARD);
        let mut tree = random_tree(start, Rules::default(), seed, steps);
        names(&mut tree, seed);
        if seed % 3 == 0 {
            tree.set_header("Date", "Wed Oct 29 08:02:18 ADT 2025").unwrap();
        }
        random_ending(&mut tree, seed, true);
        let text = tree.to_sgf().unwrap();
        prop_assert_eq!(TextFormat::of(&text), TextFormat::Sgf);
        let back = GameTree::from_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        prop_assert_eq!(&back, &tree, "{}", text);
        // The main line reads as a BoardSpace record of the main line's game.
        let imported = import(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let main = tree.main_game();
        prop_assert_eq!(imported.game.positions(), main.positions());
        // And through the record format too.
        let again = GameTree::from_text(&back.to_record_text()).unwrap();
        prop_assert_eq!(&again, &tree);
    }
}

#[test]
fn variations_are_written_like_pgn() {
    let mut tree = GameTree::new(Position::standard(), Rules::default());
    let root = tree.root();
    let a = tree.add_text(root, "Wd4,a1").unwrap();
    let b = tree.add_text(a, "Gb2,g4").unwrap();
    let b2 = tree.add_text(a, "bb2 g4").unwrap();
    let c = tree.add_text(b, "Bf2,a2").unwrap();
    tree.add_text(b2, "Wf2,a2").unwrap();
    tree.set_comment(c, "the point").unwrap();
    tree.set_comment(root, "an opening").unwrap();
    let text = tree.to_record_text();
    let moves = text.split("\n\n").nth(1).unwrap().trim();
    assert_eq!(
        moves,
        "{an opening} 1. Wd4,a1 Gb2,g4 (1... Bb2,g4 2. Wf2,a2) 2. Bf2,a2 {the point} *"
    );
    assert_eq!(GameTree::from_text(&text).unwrap(), tree);
    // Promote the variation: it becomes the main line and the old line the variation.
    assert!(tree.promote(b2).unwrap());
    assert_eq!(tree.main_line().len(), 3);
    assert_eq!(tree.main_line()[1], b2);
    let text = tree.to_record_text();
    assert!(
        text.contains("1. Wd4,a1 Bb2,g4 (1... Gb2,g4 2. Bf2,a2 {the point}) 2. Wf2,a2 *"),
        "{text}"
    );
    // Promoting a main-line node changes nothing.
    assert!(!tree.promote(b2).unwrap());
    // Paths and positions.
    assert_eq!(tree.path(c).unwrap(), vec![a, b, c]);
    assert_eq!(
        *tree.position(c).unwrap(),
        tree.game_at(c).unwrap().position().clone()
    );
    // Delete the old line: its nodes are gone, the ids of the others unchanged.
    tree.delete(b).unwrap();
    assert!(tree.node(c).is_none());
    assert_eq!(tree.children(a).unwrap(), &[b2]);
    assert!(tree.delete(tree.root()).is_err());
    assert!(tree.set_comment(c, "gone").is_err());
}

#[test]
fn bribe_events_stay_bribes_next_to_variations() {
    let start: Position =
        "37 standard ..../...../....../......./....../...../.... 4/8/10 1/0/0 1/0/0 1"
            .parse()
            .unwrap();
    let rules = Rules {
        bribes: true,
        ..Rules::default()
    };
    let mut tree = GameTree::new(start, rules);
    let root = tree.root();
    let r = tree.add_text(root, "bribe 1/0/0 rejected").unwrap();
    let m = tree.add_text(r, "Wd4,a1").unwrap();
    let p = tree.add_text(m, "(bribe 1/0/0 accepted) -").unwrap();
    tree.add_text(p, "Gc3,g4").unwrap();
    // A variation at the rejected bribe and one at the accepted bribe.
    tree.add_text(root, "Gd4,a1").unwrap();
    tree.add_text(m, "Bc3,g4").unwrap();
    let text = tree.to_record_text();
    assert!(
        text.replace('\n', " ").contains(
            "1. (bribe 1/0/0 rejected) (1. Gd4,a1) 1. Wd4,a1 (bribe 1/0/0 accepted) - (1... Bc3,g4) 2. Gc3,g4"
        ),
        "{text}"
    );
    let back = GameTree::from_text(&text).unwrap();
    assert_eq!(back, tree);
    assert_eq!(
        back.node(back.main_line()[0]).unwrap().step(),
        Some(Step::Bribe {
            bribe: Marbles::new(1, 0, 0),
            accepted: false
        })
    );
    // BoardSpace can hold neither this start nor bribes.
    assert!(tree.to_sgf().is_err());
}

#[test]
fn a_record_without_variations_reads_and_writes_as_before() {
    let mut game = Game::standard();
    let mut rng = Rng(7);
    for _ in 0..30 {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(&moves[rng.below(moves.len())]).unwrap();
    }
    let record = zertz::record::Record::new(game.clone(), &[("Player1", "Ann")]);
    let text = record.to_string();
    let tree = GameTree::from_text(&text).unwrap();
    assert_eq!(tree.to_record_text(), text);
    assert_eq!(
        GameTree::from_game(&game).main_game().positions(),
        game.positions()
    );
    // Comments are kept by the tree; the record reader skips them as it always did.
    let commented = text.replace(" 2. ", " {here} 2. ");
    let tree = GameTree::from_text(&commented).unwrap();
    assert_eq!(tree.comment(tree.main_line()[1]).unwrap(), "here");
    assert_eq!(
        zertz::record::Record::parse(&commented)
            .unwrap()
            .to_string(),
        text
    );
}

#[test]
fn a_position_string_is_a_tree_of_one_position() {
    let p =
        "48 standard ...../....../......./......../......./....../...../.... 6/8/10 0/0/0 0/0/0 1";
    let tree = GameTree::from_text(p).unwrap();
    assert_eq!(tree.start().to_string(), p);
    assert!(tree.is_empty());
    let e = GameTree::from_text("37 standard -.../... 5/8/10 0/0/0 0/0/0 2").unwrap_err();
    assert_eq!(e.format, TextFormat::Position);
    assert_eq!(e.line, 1);
    assert!(e.column > 1, "{e}");
    assert!(e.to_string().starts_with("position string line 1"), "{e}");
}

#[test]
fn bad_text_is_refused_with_line_column_and_token() {
    let cases: [(&str, (usize, usize, &str), &str); 10] = [
        (
            "1. Wd4,a1\n2. Qd5,a2",
            (2, 4, "Qd5,a2"),
            "expected a colour",
        ),
        (
            "1. Wd4,a1 Gc3,g4 (1... Qc3 )",
            (1, 24, "Qc3"),
            "expected a colour",
        ),
        ("1. Wd4,a1 (1. Gd4,a1", (1, 11, "("), "never closed"),
        ("1. Wd4,a1 )", (1, 11, ")"), "without a matching"),
        ("1. ( Wd4,a1 )", (1, 4, "("), "follow the move it replaces"),
        ("1. Wd4,a1 ()", (1, 11, "("), "empty variation"),
        (
            "1. Wd4,a1 (Gd4,a1 1-0)",
            (1, 19, "1-0"),
            "ends the main line",
        ),
        (
            "1. Wd4,a1 (bribe 1/0/0 accepted)",
            (1, 11, "(bribe 1/0/0 accepted)"),
            "not allowed",
        ),
        (
            "1. Wd4,a1 {never closed",
            (1, 11, "{never closed"),
            "never closed",
        ),
        (
            "1. Wd4,a1 (Wd4,a1 Wd4,b1)",
            (1, 19, "Wd4,b1"),
            "already holds",
        ),
    ];
    for (text, (line, column, token), words) in cases {
        let e = GameTree::from_text(text).unwrap_err();
        assert_eq!(e.format, TextFormat::Record, "{text}");
        assert_eq!(
            (e.line, e.column, e.token.as_str()),
            (line, column, token),
            "{text}: {e}"
        );
        assert!(e.message.contains(words), "{text}: {e}");
    }
    // Nested deeper than the limit.
    let mut deep = String::from("1. Wd4,a1");
    for _ in 0..=zertz::record::MAX_NESTING {
        deep.push_str(" (Gd4,a1");
    }
    let e = GameTree::from_text(&deep).unwrap_err();
    assert!(e.message.contains("nested"), "{e}");

    // SGF: syntax, then a bad gesture in a variation, each with the line, column and token.
    let e =
        GameTree::from_text("(;GM[22]SU[Zertz]\n; P0[0 Start P0] ; P0[1 RtoB 2 2 C 3").unwrap_err();
    assert_eq!((e.format, e.line), (TextFormat::Sgf, 2));
    assert!(e.message.contains("never closed"), "{e}");
    let sgf = "(;GM[22]VV[2]SU[Zertz]P0[id \"a\"]P1[id \"b\"]\n; P0[0 Start P0]\n(; P0[1 RtoB 2 2 D 4]\n; P0[2 R- A 1]\n; P0[3 Done])\n(; P0[1 RtoB 2 2 Z 9]\n; P0[2 Done])\n)";
    let e = GameTree::from_text(sgf).unwrap_err();
    assert_eq!((e.line, e.column), (6, 4), "{e}");
    assert_eq!(e.token, "P0[1 RtoB 2 2 Z 9]");
    assert!(e.message.contains("coordinate"), "{e}");
}

#[test]
fn sgf_variations_and_comments_are_read() {
    // A BoardSpace main line with a variation at the second turn and comments.
    let sgf = "(;GM[22]VV[2]SU[Zertz]P0[id \"ann\"]P1[id \"ben\"]C[a test game]\n\
        ; P0[0 Start P0]\n\
        ; P0[1 RtoB 2 0 D 4]\n; P0[2 R- D 1]\n; P0[3 Done]C[opening]\n\
        (; P1[4 RtoB 2 2 D 5]\n; P1[5 R- A 1]\n; P1[6 Done]\n; P0[7 BtoB D 4 D 6]\n; P0[8 Done]C[takes])\n\
        (; P1[4 RtoB 2 1 C 3]C[calmer]\n; P1[5 R- G 4]\n; P1[6 Done])\n)";
    let tree = GameTree::from_text(sgf).unwrap();
    assert_eq!(tree.comment(tree.root()).unwrap(), "a test game");
    assert_eq!(tree.header("Player1"), Some("ann"));
    let main = tree.main_line();
    assert_eq!(main.len(), 3);
    assert_eq!(tree.comment(main[0]).unwrap(), "opening");
    assert_eq!(tree.comment(main[2]).unwrap(), "takes");
    let alt = tree.children(main[0]).unwrap()[1];
    assert_eq!(tree.comment(alt).unwrap(), "calmer");
    let before = tree.position(main[0]).unwrap();
    let alt_step = tree.node(alt).unwrap().step().unwrap();
    assert_eq!(alt_step.text(before), "Gc3,g4");
    // The main line is what BoardSpace's reader sees.
    assert_eq!(import(sgf).unwrap().game.turns().len(), 3);
}

// ---------------------------------------------------------------------------------------------
// The shared archive
// ---------------------------------------------------------------------------------------------

fn archive() -> Option<PathBuf> {
    let dir = match std::env::var_os("ZERTZ_BOARDSPACE") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/boardspace"),
    };
    dir.is_dir().then_some(dir)
}

/// Every `every`-th record of the folder (`.sgf` files and `.sgf` entries of `.zip` archives),
/// in a fixed order.
fn sample(dir: &Path, every: usize, out: &mut Vec<(String, String)>, count: &mut usize) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable archive folder")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        if path.is_dir() {
            sample(&path, every, out, count);
        } else if ext.as_deref() == Some("sgf") {
            *count += 1;
            if (*count).is_multiple_of(every) {
                let bytes = std::fs::read(&path).expect("read");
                out.push((
                    path.display().to_string(),
                    String::from_utf8_lossy(&bytes).into(),
                ));
            }
        } else if ext.as_deref() == Some("zip") {
            let mut zip =
                zip::ZipArchive::new(std::fs::File::open(&path).expect("open zip")).expect("zip");
            for i in 0..zip.len() {
                let mut entry = zip.by_index(i).expect("entry");
                if !entry.name().to_ascii_lowercase().ends_with(".sgf") {
                    continue;
                }
                *count += 1;
                if (*count).is_multiple_of(every) {
                    let mut bytes = Vec::new();
                    entry.read_to_end(&mut bytes).expect("read entry");
                    out.push((
                        format!("{}!{}", path.display(), entry.name()),
                        String::from_utf8_lossy(&bytes).into(),
                    ));
                }
            }
        }
    }
}

#[test]
fn a_sample_of_the_boardspace_archive_goes_through_the_tree_unchanged() {
    let Some(dir) = archive() else {
        eprintln!(
            "no BoardSpace archive at ../shared/boardspace or $ZERTZ_BOARDSPACE: nothing to check"
        );
        return;
    };
    let mut records = Vec::new();
    let mut count = 0;
    sample(&dir, 10, &mut records, &mut count);
    assert!(
        records.len() > 1000,
        "only {} records sampled",
        records.len()
    );
    let mut checked = 0;
    for (name, text) in &records {
        // Records BoardSpace's reader refuses are refused by the tree too, with a place.
        let imported = match import(text) {
            Ok(r) => r,
            Err(_) => {
                let e = GameTree::from_text(text).unwrap_err();
                assert!(e.line >= 1 && e.column >= 1, "{name}: {e}");
                continue;
            }
        };
        let tree = GameTree::from_text(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let main = tree.main_game();
        assert_eq!(main.positions(), imported.game.positions(), "{name}");
        assert_eq!(
            tree.depth(),
            imported.game.turns().len(),
            "{name}: a line, no branch"
        );
        // Through the record format and back.
        let record = tree.to_record_text();
        let back = GameTree::from_text(&record).unwrap_or_else(|e| panic!("{name}: {e}\n{record}"));
        assert_eq!(back, tree, "{name}");
        // Through SGF and back, where BoardSpace can hold it (custom boards read back as the
        // same places in another frame).
        if let Ok(sgf) = tree.to_sgf() {
            let again = GameTree::from_text(&sgf).unwrap_or_else(|e| panic!("{name}: {e}\n{sgf}"));
            let moves = |t: &GameTree| -> Vec<String> {
                let g = t.main_game();
                g.turns()
                    .iter()
                    .zip(g.positions())
                    .map(|(turn, p)| zertz::notation::official::turn_text(p, turn))
                    .collect()
            };
            assert_eq!(moves(&again), moves(&tree), "{name}");
            assert_eq!(again.main_game().outcome(), main.outcome(), "{name}");
        }
        checked += 1;
    }
    eprintln!(
        "{checked} of {} sampled records (of {count}) through the tree",
        records.len()
    );
    assert!(checked > 1000);
}

#[test]
fn node_ids_stay_valid_after_edits() {
    let mut tree = GameTree::new(Position::standard(), Rules::default());
    let root = tree.root();
    let a = tree.add_text(root, "Wd4,a1").unwrap();
    let b = tree.add_text(root, "Gd4,a1").unwrap();
    let c = tree.add_text(root, "Bd4,a1").unwrap();
    let c2 = tree.add_text(c, "Wc3,g4").unwrap();
    tree.delete(b).unwrap();
    assert!(tree.make_main_line(c2).unwrap());
    assert_eq!(tree.children(root).unwrap(), &[c, a]);
    assert_eq!(tree.main_line(), vec![c, c2]);
    assert_eq!(tree.node(c2).unwrap().parent(), Some(c));
    // A new node never takes a deleted node's id.
    let d = tree.add_text(root, "Gd4,a1").unwrap();
    assert_ne!(d, b);
    assert_eq!(tree.len(), 5);
    assert!(NodeId::from_index(b.index()).is_some_and(|id| tree.node(id).is_none()));
    // An illegal step is refused with the reason, at a node that does not exist too.
    let e = tree.add_text(c2, "Wd4,a2").unwrap_err();
    assert!(e.to_string().contains("Wd4,a2"), "{e}");
    assert!(tree.add_text(b, "Wd4,a1").is_err());
}

/// Texts of each kind with a few characters deleted, inserted or replaced (those the formats
/// care about): each is read or refused with a place, never panics, and what is read writes
/// back to a record that reads as the same tree (and to SGF with as many nodes).
#[test]
fn mutated_texts_are_read_or_refused_with_a_place() {
    let base = [
        "[Player1 \"Ann\"]\n[Bribes \"on\"]\n[Start \"37 standard ..../...../....../......./....../...../.... 4/8/10 1/0/0 1/0/0 1\"]\n\n\
         {root} 1. (bribe 1/0/0 rejected) (1. Gd4,a1 {x}) 1. Wd4,a1 (bribe 1/0/0 accepted) - \
         (1... Bc3,g4 (1... Gc3,g4)) 2. Gc3,g4 *\n",
        "{a short game} 1. Wd4,a1 Gb2,g4 {solid} (1... Bb2,g4 2. Wf2,a2) 2. Bf2,a2 1-0\n",
        "(;GM[22]VV[2]SU[Zertz]P0[id \"ann\"]P1[id \"ben\"]\n; P0[0 Start P0]\n; P0[1 RtoB 2 0 D 4]\n\
         ; P0[2 R- D 1]\n; P0[3 Done]C[opening]\n(; P1[4 RtoB 2 2 D 5]\n; P1[5 R- A 1]\n; P1[6 Done])\n\
         (; P1[4 RtoB 2 1 C 3]\n; P1[5 R- G 4]\n; P1[6 Done]C[calmer])\n)",
    ];
    let alphabet: Vec<char> = "(){}[]-x W1\n;Pb\\\"".chars().collect();
    let mut rng = Rng(99);
    let mut read = 0;
    for i in 0..6000 {
        let mut t: Vec<char> = base[i % 3].chars().collect();
        for _ in 0..1 + rng.below(3) {
            let p = rng.below(t.len() + 1);
            let c = alphabet[rng.below(alphabet.len())];
            match rng.below(3) {
                0 if p < t.len() => {
                    t.remove(p);
                }
                1 => t.insert(p, c),
                _ if p < t.len() => t[p] = c,
                _ => {}
            }
        }
        let text: String = t.into_iter().collect();
        match GameTree::from_text(&text) {
            Ok(tree) => {
                read += 1;
                let record = tree.to_record_text();
                let back = GameTree::from_text(&record)
                    .unwrap_or_else(|e| panic!("{e}\n{text}\n---\n{record}"));
                assert!(back == tree, "{text}\n---\n{record}");
                if let Ok(sgf) = tree.to_sgf() {
                    let again = GameTree::from_text(&sgf)
                        .unwrap_or_else(|e| panic!("{e}\n{text}\n---\n{sgf}"));
                    assert_eq!(again.len(), tree.len(), "{text}\n---\n{sgf}");
                }
            }
            Err(e) => assert!(e.line >= 1 && e.column >= 1, "{e}\n{text}"),
        }
    }
    assert!(read > 100, "only {read} mutated texts read");
}

/// A BoardSpace record with a variation written before the rest of its main line (a comment in
/// its own `( … )`, as the fuzzer found): the first line read is short and not over, so the
/// record's result read as a resignation; the full main line ends by a winning set and must not
/// keep that ending (it made the written record read back as a different tree).
#[test]
fn an_early_variation_does_not_leave_a_declared_ending_on_a_finished_main_line() {
    // A game the rules end: always the first legal move.
    let mut game = Game::new(Layout::standard(), Rules::default());
    while !game.is_over() {
        let mv = game.legal_moves()[0];
        game.play(&mv).unwrap();
    }
    assert!(matches!(
        game.outcome(),
        Some(Outcome::Win {
            reason: WinReason::WinningSet | WinReason::NoLegalMove,
            ..
        })
    ));
    let sgf = GameTree::from_game(&game).to_sgf().unwrap();
    // A comment in its own variation just before the third turn's `Done`.
    let dones: Vec<usize> = sgf
        .match_indices("\n; P")
        .map(|(i, _)| i)
        .filter(|&i| sgf[i..].lines().nth(1).is_some_and(|l| l.contains("Done")))
        .collect();
    assert!(dones.len() > 4, "{sgf}");
    let at = dones[2];
    let text = format!("{}\n; (;C[a note]\n)\n {}", &sgf[..at], &sgf[at + 3..]);
    let tree = GameTree::from_sgf(&text).unwrap();
    assert_eq!(tree.ending(), None, "{text}");
    assert_eq!(tree.main_game().outcome(), game.outcome());
    let back = GameTree::from_text(&tree.to_record_text()).unwrap();
    assert_eq!(back, tree);
}
