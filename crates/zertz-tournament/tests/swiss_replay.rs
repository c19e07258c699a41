//! Replays every round of the Swiss tournaments in `../shared/swiss` (or `$ZERTZ_SWISS`),
//! paired by a FIDE-endorsed Dutch-system engine, and checks that the project pairs each
//! round exactly as they were paired: who plays whom, who moves first, who has the bye.
//!
//! Each round k is rebuilt as the folder's README says: the first k-1 round entries of every
//! player, the points recomputed, the round-k entry kept only for an absence known before the
//! pairing (`0000` with `H`, `Z` or `F`), `XXR` and `XXC` added. The rebuilt file is written
//! as text and read back, so the TRF reader is checked on the way.
//!
//! The folder is test data kept outside the repository; without it this test has nothing to
//! check and says so.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use zertz_tournament::dutch::{self, SwissInput};
use zertz_tournament::trf::{Colour, Line, ResultCode, Trf};

fn folder() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("ZERTZ_SWISS").map(PathBuf::from),
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/swiss")),
        Some(PathBuf::from("/work/shared/swiss")),
    ];
    candidates.into_iter().flatten().find(|d| d.is_dir())
}

/// The round-`k` TRF of a tournament, as the README builds it.
fn round_file(full: &Trf, k: usize) -> Trf {
    let rounds = full.players().map(|p| p.rounds.len()).max().unwrap_or(0);
    let initial = full
        .players()
        .filter(|p| matches!(p.rounds.first(), Some(Some(e)) if e.opponent.is_some() && e.colour.is_some()))
        .min_by_key(|p| p.start_rank)
        .and_then(|p| p.rounds[0].and_then(|e| e.colour))
        .unwrap_or(Colour::White);
    let mut t = full.clone();
    for p in t.players_mut() {
        let mut kept: Vec<_> = p.rounds.iter().take(k - 1).copied().collect();
        let pts: u32 = kept.iter().flatten().map(|e| e.result.half_points()).sum();
        if let Some(Some(e)) = p.rounds.get(k - 1)
            && e.opponent.is_none()
            && matches!(
                e.result,
                ResultCode::HalfBye | ResultCode::ZeroBye | ResultCode::FullBye
            )
        {
            kept.resize(k - 1, None);
            kept.push(Some(*e));
        }
        p.rounds = kept;
        p.points_tenths = Some(pts * 5);
    }
    t.lines.push(Line::Rounds(rounds as u32));
    t.lines.push(Line::InitialColour(initial));
    t
}

type Expected = (BTreeSet<(u32, u32)>, Option<u32>);

fn expected(full: &Trf, k: usize) -> Expected {
    let mut pairs = BTreeSet::new();
    let mut bye = None;
    for p in full.players() {
        if let Some(Some(e)) = p.rounds.get(k - 1) {
            match (e.opponent, e.colour) {
                (Some(o), Some(Colour::White)) => {
                    pairs.insert((p.start_rank, o));
                }
                (None, _) if e.result == ResultCode::PairingBye => bye = Some(p.start_rank),
                _ => {}
            }
        }
    }
    (pairs, bye)
}

/// Pairs every round of every file; returns (rounds, rounds reproduced, first failures).
fn replay(dir: &Path) -> (usize, usize, Vec<String>) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    files.sort();
    let (mut total, mut good, mut failures) = (0, 0, Vec::new());
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable file");
        let full = Trf::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let rounds = full.players().map(|p| p.rounds.len()).max().unwrap_or(0);
        for k in 1..=rounds {
            total += 1;
            let written = round_file(&full, k).write("\r");
            let reread = Trf::parse(&written).expect("rebuilt file reads back");
            let input = SwissInput::from_trf(&reread).expect("input");
            assert_eq!(input.round as usize, k, "{} round {k}", f.display());
            let got = dutch::pair(&input);
            let want = expected(&full, k);
            let ok = match &got {
                Ok(p) => {
                    let set: BTreeSet<(u32, u32)> = p.pairs.iter().copied().collect();
                    set == want.0 && p.bye == want.1
                }
                Err(_) => false,
            };
            if ok {
                good += 1;
            } else {
                let name = f.file_name().unwrap().to_string_lossy().to_string();
                let detail = match got {
                    Ok(p) => {
                        let set: BTreeSet<(u32, u32)> = p.pairs.iter().copied().collect();
                        let missing: Vec<_> = want.0.difference(&set).collect();
                        let extra: Vec<_> = set.difference(&want.0).collect();
                        format!(
                            "{name} round {k}: expected {missing:?} bye {:?}, paired {extra:?} bye {:?}",
                            want.1, p.bye
                        )
                    }
                    Err(e) => format!("{name} round {k}: {e}"),
                };
                failures.push(detail);
            }
        }
    }
    (total, good, failures)
}

#[test]
fn every_round_of_the_shared_swiss_tournaments_is_reproduced() {
    let Some(dir) = folder() else {
        eprintln!(
            "\n\n!!! NO SWISS TOURNAMENTS FOUND at $ZERTZ_SWISS, ../shared/swiss or \
             /work/shared/swiss: the Dutch pairing was NOT checked against them !!!\n\n"
        );
        return;
    };
    let (total, good, failures) = replay(&dir);
    eprintln!(
        "{good} of {total} rounds reproduced ({} differ) from {}",
        total - good,
        dir.display()
    );
    for f in failures.iter().take(40) {
        eprintln!("  {f}");
    }
    assert!(total > 0, "no .trf files in {}", dir.display());
    assert!(
        failures.is_empty(),
        "{} of {total} rounds differ",
        failures.len()
    );
}
