//! `zertz tune`, run as the real binary with tiny settings (a real tuning run takes hours): the
//! same seed gives the same weights, on one thread or two; the file it writes reads back;
//! `--start` starts from a weights file and `--fixed` holds weights at their starting value.

use std::path::{Path, PathBuf};
use std::process::Command;

use zertz_engine::Weights;

const BIN: &str = env!("CARGO_BIN_EXE_zertz");

/// Runs `zertz tune ARGS`; gives stdout, stderr and the exit code.
fn run(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(BIN)
        .arg("tune")
        .args(args)
        .output()
        .expect("run zertz tune");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zertz-tune-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Two iterations of one opening (two games each) at 300 nodes a move.
const TINY: [&str; 8] = [
    "--iterations",
    "2",
    "--openings",
    "1",
    "--nodes",
    "300",
    "--seed",
    "5",
];

/// Runs a tiny tuning into `out`; gives the weights printed and the file written.
fn tiny(out: &Path, extra: &[&str]) -> (String, String) {
    let mut args = vec!["--out", out.to_str().unwrap()];
    args.extend_from_slice(&TINY);
    args.extend_from_slice(extra);
    let (stdout, err, code) = run(&args);
    assert_eq!(code, 0, "{err}");
    // One progress line per iteration.
    assert_eq!(err.matches("plus vs minus").count(), 2, "{err}");
    let file = std::fs::read_to_string(out).expect("the weights file");
    (stdout, file)
}

#[test]
fn the_same_seed_gives_the_same_weights_and_the_file_reads_back() {
    let dir = scratch("same");
    let out = dir.join("weights.txt");
    let (printed, file) = tiny(&out, &[]);
    let (again, file_again) = tiny(&out, &[]);
    assert_eq!(printed, again);
    assert_eq!(file, file_again);
    // Games in parallel change nothing: each is seeded and searched to a node count.
    let (parallel, _) = tiny(&out, &["--concurrency", "2"]);
    assert_eq!(printed, parallel);
    // The file is a weights file: its comments say how it was made, and it holds the weights
    // printed.
    assert!(file.starts_with("# "), "{file}");
    assert!(file.contains("# after iteration 2 of 2"), "{file}");
    let from_file = Weights::parse(&file).expect("the file reads back");
    let from_output = Weights::parse(&printed).expect("the output reads too");
    assert_eq!(from_file, from_output);
    assert_eq!(from_file.named().len(), Weights::baseline().named().len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn start_from_a_file_and_hold_weights_fixed() {
    let dir = scratch("fixed");
    let mut start = Weights::baseline();
    for (name, value) in [
        ("tempo", 77),
        ("single.black.1", 555),
        ("each.3", 61),
        ("isolation", 123),
    ] {
        assert!(start.set(name, value));
    }
    let start_file = dir.join("start.txt");
    std::fs::write(&start_file, format!("# a start\n{start}")).unwrap();
    let out = dir.join("weights.txt");
    let (printed, _) = tiny(
        &out,
        &[
            "--start",
            start_file.to_str().unwrap(),
            "--fixed",
            "single.*,each.*",
            "--fixed",
            "tempo",
        ],
    );
    let tuned = Weights::parse(&printed).unwrap();
    for ((name, before), (_, after)) in start.named().iter().zip(tuned.named()) {
        let fixed = name.starts_with("single.") || name.starts_with("each.") || name == "tempo";
        if fixed {
            assert_eq!(*before, after, "{name} was fixed");
        }
    }
    // A weight that is not fixed starts from the file too (the baseline's is 650), and two
    // iterations move it by a few steps of a tenth of its size at most.
    assert_ne!(Weights::baseline().isolation, 123);
    assert!((tuned.isolation - 123).abs() <= 50, "{}", tuned.isolation);
    // `--from` is the same option.
    let (from, _) = tiny(
        &out,
        &[
            "--from",
            start_file.to_str().unwrap(),
            "--fixed",
            "single,each,tempo",
        ],
    );
    assert_eq!(from, printed);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_are_refused_with_a_reason() {
    let dir = scratch("bad");
    let out = dir.join("w.txt");
    let out = out.to_str().unwrap();
    let bad_weights = dir.join("bad.txt");
    std::fs::write(&bad_weights, "tempo twenty\n").unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["--fixed", "nothing.*"],
            "--fixed `nothing.*` names no weight",
        ),
        (&["--fixed", "sing"], "--fixed `sing` names no weight"),
        (&["--start", "/nonexistent/w.txt"], "cannot read"),
        (&["--start", bad_weights.to_str().unwrap()], "line 1"),
        (&["--iterations", "0"], "must be at least 1"),
    ];
    for (args, message) in cases {
        let mut all = vec!["--out", out];
        all.extend_from_slice(args);
        let (_, err, code) = run(&all);
        assert_ne!(code, 0, "{args:?} accepted");
        assert!(
            err.contains(message),
            "{args:?}: `{message}` not in:\n{err}"
        );
    }
    assert!(!Path::new(out).exists(), "nothing written");
    let _ = std::fs::remove_dir_all(&dir);
}
