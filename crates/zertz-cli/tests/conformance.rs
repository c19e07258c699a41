//! Replays every BoardSpace record in `../shared/boardspace` (or `$ZERTZ_BOARDSPACE`) with the
//! `zertz` binary and checks the result: every record accounted for, no win that disagrees
//! with the recorded winner, and no failure beyond the documented anomalies of
//! `tests/data/boardspace-anomalies.tsv` (each of which must still fail as described).
//!
//! The archive is test data kept outside the repository; without it this test has nothing to
//! check and says so.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn archive() -> Option<PathBuf> {
    let dir = match std::env::var_os("ZERTZ_BOARDSPACE") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/boardspace"),
    };
    dir.is_dir().then_some(dir)
}

/// Counts `.sgf` files and `.sgf` entries of `.zip` archives, independently of `zertz`.
fn count_records(dir: &Path) -> usize {
    let mut n = 0;
    for entry in fs::read_dir(dir).expect("readable archive folder") {
        let path = entry.expect("directory entry").path();
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        if path.is_dir() {
            n += count_records(&path);
        } else if ext.as_deref() == Some("sgf") {
            n += 1;
        } else if ext.as_deref() == Some("zip") {
            let archive =
                zip::ZipArchive::new(fs::File::open(&path).expect("open zip")).expect("zip");
            n += archive
                .file_names()
                .filter(|name| name.to_ascii_lowercase().ends_with(".sgf"))
                .count();
        }
    }
    n
}

#[test]
fn boardspace_archive_replays() {
    let Some(dir) = archive() else {
        eprintln!(
            "no BoardSpace archive at ../shared/boardspace or $ZERTZ_BOARDSPACE: nothing to check"
        );
        return;
    };
    let known = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/boardspace-anomalies.tsv");
    let output = Command::new(env!("CARGO_BIN_EXE_zertz"))
        .args(["replay", "--json", "--failures", "--known"])
        .arg(&known)
        .arg(&dir)
        .output()
        .expect("run zertz replay");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let summary: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "replay printed no JSON ({e}): {stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let n = |key: &str| {
        summary[key]
            .as_u64()
            .unwrap_or_else(|| panic!("no {key} in {summary}"))
    };
    let unexpected = summary["unexpected"].as_array().expect("unexpected list");
    assert!(
        unexpected.is_empty(),
        "failures beyond the documented anomalies: {unexpected:#?}"
    );
    assert!(
        output.status.success(),
        "zertz replay exited with {}",
        output.status
    );

    // Every record is accounted for, and the categories add up.
    assert_eq!(n("records_read") as usize, count_records(&dir));
    assert_eq!(n("records_read"), n("replayed_to_end") + n("rejected"));
    let no_win = &summary["ended_without_win"];
    let ended = n("win_agrees")
        + n("win_disagrees")
        + n("win_unrecorded")
        + n("win_result_unreadable")
        + n("win_record_says_draw")
        + n("draw_by_repetition")
        + no_win["resigned"].as_u64().unwrap()
        + no_win["win_on_time"].as_u64().unwrap()
        + no_win["unfinished"].as_u64().unwrap();
    assert_eq!(ended, n("replayed_to_end"));

    // No record that names a winner ends in a win for the other player.
    assert_eq!(n("win_disagrees"), 0);
    // Records that state a result and end by the rules exist in numbers (thousands here).
    assert!(
        n("win_agrees") > 1000,
        "suspiciously few agreeing records: {summary}"
    );
}
