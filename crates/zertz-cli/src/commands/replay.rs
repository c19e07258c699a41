//! `zertz replay`: replays BoardSpace records under the project's rules and reports how each
//! ended compared with the result the record states.

use std::collections::BTreeMap;
use std::fs;
use std::io::{Cursor, IsTerminal};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use zertz::boardspace::{
    AnyImported, Ending, ImportError, Imported, RecordedResult, RejectKind, import_any,
};
use zertz::layout::LayoutWidth;
use zertz::{DrawReason, Outcome};

/// Options of `zertz replay`.
#[derive(Args)]
pub struct ReplayArgs {
    /// `.sgf` files, directories (searched recursively) and `.zip` archives of BoardSpace
    /// records.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
    /// List every rejected or disagreeing record with the line and the reason.
    #[arg(long)]
    failures: bool,
    /// Print each record's moves in official notation (with their SGF lines), the captures and
    /// the final position.
    #[arg(long)]
    moves: bool,
    /// A file of known anomalies: lines `FILE-NAME<TAB>REASON<TAB>EXPLANATION` naming records
    /// known to break the rules (reason: a rejection kind, or `record says draw`). They are
    /// reported as known and do not make the exit status non-zero; a listed record that does not
    /// fail that way is reported as a problem.
    #[arg(long)]
    known: Option<PathBuf>,
}

/// Where a record comes from: a file, or an entry of a zip archive.
#[derive(Clone, Debug)]
pub(crate) enum Source {
    File(PathBuf),
    ZipEntry(Arc<Archive>, usize, String),
}

impl Source {
    /// The file, or `archive.zip!entry`.
    pub(crate) fn name(&self) -> String {
        match self {
            Source::File(p) => p.display().to_string(),
            Source::ZipEntry(zip, _, entry) => format!("{}!{entry}", zip.path.display()),
        }
    }
}

/// A zip archive read once: its bytes and its directory, shared by the entries listed from it
/// (reading an entry clones the directory's handle, it does not parse the directory again).
/// The archives stay in memory while their entries are read: 14 MB for the shared archive's
/// 18,337 records.
pub(crate) struct Archive {
    pub(crate) path: PathBuf,
    zip: InMemoryZip,
}

/// A zip archive over its bytes in memory: cloning it shares the bytes and the directory.
type InMemoryZip = zip::ZipArchive<Cursor<Arc<[u8]>>>;

impl std::fmt::Debug for Archive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Archive({})", self.path.display())
    }
}

/// Records that ended without a win under the rules, by how they end.
#[derive(Clone, Debug, Default, Serialize)]
pub struct NoWin {
    /// A player resigned.
    pub resigned: usize,
    /// A player claimed a win on time.
    pub win_on_time: usize,
    /// The record stops with the game going on.
    pub unfinished: usize,
}

/// The summary of a replay run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// Records found.
    pub records_read: usize,
    /// Records replayed move by move to their last move.
    pub replayed_to_end: usize,
    /// Replayed to a win that the record's result confirms.
    pub win_agrees: usize,
    /// Replayed to a win for the other player than the record names.
    pub win_disagrees: usize,
    /// Replayed to a win; the record states no result.
    pub win_unrecorded: usize,
    /// Replayed to a win; the record's result names neither player (or both, as when both
    /// are "guest").
    pub win_result_unreadable: usize,
    /// Replayed to a win; the record says the game was drawn.
    pub win_record_says_draw: usize,
    /// Replayed to a draw by threefold repetition.
    pub draw_by_repetition: usize,
    /// Replayed to the end without a win under the rules.
    pub ended_without_win: NoWin,
    /// Records that could not be replayed.
    pub rejected: usize,
    /// Of those, how many are documented artefacts of BoardSpace's undo and edit tools.
    pub rejected_artefacts: usize,
    /// Rejections by reason.
    pub rejections: BTreeMap<String, usize>,
    /// Replayed records with gestures after the game had already ended (ignored).
    pub with_moves_after_end: usize,
    /// Replayed records in which undo gestures were honoured.
    pub with_undo_gestures: usize,
    /// Replayed records with null gestures skipped.
    pub with_null_gestures: usize,
    /// Failures that match the list of known anomalies (`--known`).
    pub known_anomalies: usize,
    /// Listed anomalies that did not fail as listed, and unlisted failures (with `--known`).
    pub unexpected: Vec<String>,
}

/// A record that was rejected or disagrees.
#[derive(Clone, Debug, Serialize)]
pub struct Failure {
    /// File or `archive.zip!entry`.
    pub record: String,
    /// SGF line.
    pub line: usize,
    /// `rejected` (artefact or not), `disagrees`, or `record says draw`.
    pub status: String,
    /// The kind of failure: a rejection kind, `disagrees` or `record says draw`.
    pub kind: String,
    /// What happened.
    pub reason: String,
    /// True when the record is an artefact of undo or edit gestures.
    pub artefact: bool,
}

impl Failure {
    /// The record's file name without its folder or archive.
    pub fn file_name(&self) -> &str {
        // Entry names may contain `!` themselves (`U!Z-...`): cut at the archive's name.
        let after_archive = match self.record.split_once(".zip!") {
            Some((_, entry)) => entry,
            None => &self.record,
        };
        after_archive.rsplit('/').next().unwrap_or(after_archive)
    }
}

/// A known anomaly: a record name and the failure kind expected of it.
#[derive(Clone, Debug)]
pub struct Known {
    /// The record's file name.
    pub file_name: String,
    /// The expected failure kind.
    pub kind: String,
}

/// Reads a list of known anomalies (`FILE-NAME<TAB>KIND<TAB>EXPLANATION`, `#` comments).
pub fn read_known(path: &Path) -> anyhow::Result<Vec<Known>> {
    let text =
        fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split('\t');
        let (Some(file_name), Some(kind)) = (fields.next(), fields.next()) else {
            anyhow::bail!(
                "{}:{}: expected FILE-NAME<TAB>KIND<TAB>EXPLANATION",
                path.display(),
                i + 1
            );
        };
        out.push(Known {
            file_name: file_name.to_string(),
            kind: kind.to_string(),
        });
    }
    Ok(out)
}

/// Matches failures against the known anomalies: counts the known ones into the summary and
/// lists what was not expected (unlisted failures, and listed records that did not fail so).
pub fn apply_known(summary: &mut Summary, failures: &[Failure], known: &[Known]) {
    let mut matched = vec![false; known.len()];
    for f in failures {
        let hit = known
            .iter()
            .position(|k| k.file_name == f.file_name() && k.kind == f.kind);
        match hit {
            Some(i) => {
                matched[i] = true;
                summary.known_anomalies += 1;
            }
            None if f.artefact => {}
            None => summary
                .unexpected
                .push(format!("{}: {} ({})", f.record, f.kind, f.reason)),
        }
    }
    for (k, m) in known.iter().zip(matched) {
        if !m {
            summary.unexpected.push(format!(
                "{}: listed as `{}` but did not fail so",
                k.file_name, k.kind
            ));
        }
    }
}

/// Archives and folders that could not be read: path, reason.
pub(crate) type Unreadable = Vec<(PathBuf, String)>;

/// Finds every record under `paths`; the first unreadable folder or archive is an error.
pub(crate) fn collect(paths: &[PathBuf]) -> anyhow::Result<Vec<Source>> {
    let (out, unreadable) = collect_lenient(paths)?;
    match unreadable.into_iter().next() {
        Some((_, reason)) => Err(anyhow::anyhow!(reason)),
        None => Ok(out),
    }
}

/// Finds every record under `paths`, listing the archives and folders inside them that cannot
/// be read (path, reason) instead of stopping there. A path named on the command line that
/// does not exist is still an error.
pub(crate) fn collect_lenient(paths: &[PathBuf]) -> anyhow::Result<(Vec<Source>, Unreadable)> {
    let mut out = Vec::new();
    let mut unreadable = Vec::new();
    for path in paths {
        fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
        collect_one(path, true, &mut out, &mut unreadable);
    }
    Ok((out, unreadable))
}

fn is_ext(path: &Path, ext: &str) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

fn collect_one(
    path: &Path,
    named: bool,
    out: &mut Vec<Source>,
    unreadable: &mut Vec<(PathBuf, String)>,
) {
    if let Err(e) = collect_in(path, named, out, unreadable) {
        unreadable.push((path.to_path_buf(), format!("{e:#}")));
    }
}

fn collect_in(
    path: &Path,
    named: bool,
    out: &mut Vec<Source>,
    unreadable: &mut Vec<(PathBuf, String)>,
) -> anyhow::Result<()> {
    let meta = fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    if meta.is_dir() {
        let mut entries: Vec<PathBuf> = fs::read_dir(path)
            .with_context(|| format!("cannot list {}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for entry in entries {
            collect_one(&entry, false, out, unreadable);
        }
    } else if is_ext(path, "zip") {
        let bytes: Arc<[u8]> = fs::read(path)
            .with_context(|| format!("cannot open {}", path.display()))?
            .into();
        let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
            .with_context(|| format!("{} is not a readable zip archive", path.display()))?;
        let mut found = Vec::new();
        for i in 0..zip.len() {
            let entry = zip
                .by_index_raw(i)
                .with_context(|| format!("{}: bad entry {i}", path.display()))?;
            if !entry.is_dir() && is_ext(Path::new(entry.name()), "sgf") {
                found.push((i, entry.name().to_string()));
            }
        }
        let archive = Arc::new(Archive {
            path: path.to_path_buf(),
            zip,
        });
        out.extend(
            found
                .into_iter()
                .map(|(i, name)| Source::ZipEntry(archive.clone(), i, name)),
        );
    } else if named || is_ext(path, "sgf") {
        out.push(Source::File(path.to_path_buf()));
    }
    Ok(())
}

/// Reads each record's text.
#[derive(Default)]
pub(crate) struct Loader {
    /// The archive being read (a clone of its handle: its own position, the shared directory).
    open: Option<(Arc<Archive>, InMemoryZip)>,
    /// Unpacks the archive's entries with one inflater.
    entries: crate::support::zip_entry::EntryReader,
}

impl Loader {
    /// The record's text (bytes that are not UTF-8 replaced), or why it cannot be read.
    pub(crate) fn load(&mut self, source: &Source) -> Result<String, String> {
        let bytes = match source {
            Source::File(path) => fs::read(path).map_err(|e| format!("cannot read: {e}"))?,
            Source::ZipEntry(archive, index, _) => {
                if self
                    .open
                    .as_ref()
                    .is_none_or(|(a, _)| !Arc::ptr_eq(a, archive))
                {
                    self.open = Some((archive.clone(), archive.zip.clone()));
                }
                let (_, zip) = self.open.as_mut().ok_or("archive not open")?;
                self.entries.read(zip, *index)?
            }
        };
        // Some old records carry bytes in a legacy encoding inside names; they never matter to
        // the moves.
        Ok(String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
    }
}

/// What became of one record.
enum Verdict {
    Rejected(ImportError),
    Replayed(Box<AnyImported>),
}

fn tally(summary: &mut Summary, failures: &mut Vec<Failure>, name: String, verdict: Verdict) {
    summary.records_read += 1;
    match verdict {
        Verdict::Rejected(e) => {
            summary.rejected += 1;
            let artefact = e.kind.is_artefact() || e.after_undo_or_edit;
            if artefact {
                summary.rejected_artefacts += 1;
            }
            let key = if artefact {
                format!("{} (after undo or edit gestures)", e.kind)
            } else {
                e.kind.to_string()
            };
            *summary.rejections.entry(key).or_insert(0) += 1;
            failures.push(Failure {
                record: name,
                line: e.line,
                status: if artefact {
                    "rejected (artefact)".into()
                } else {
                    "rejected".into()
                },
                kind: e.kind.to_string(),
                reason: e.detail,
                artefact,
            });
        }
        Verdict::Replayed(r) => match *r {
            AnyImported::Narrow(r) => tally_replayed(summary, failures, name, &r),
            AnyImported::Wide(r) => tally_replayed(summary, failures, name, &r),
            AnyImported::Huge(r) => tally_replayed(summary, failures, name, &r),
        },
    }
}

/// Counts a record replayed to its end (on a board of any width).
fn tally_replayed<S: LayoutWidth>(
    summary: &mut Summary,
    failures: &mut Vec<Failure>,
    name: String,
    r: &Imported<S>,
) {
    summary.replayed_to_end += 1;
    if r.gestures_after_end > 0 {
        summary.with_moves_after_end += 1;
    }
    if r.undo_gestures > 0 {
        summary.with_undo_gestures += 1;
    }
    if r.null_gestures > 0 {
        summary.with_null_gestures += 1;
    }
    let last_line = r.lines.last().copied().unwrap_or(1);
    match r.ending {
        Ending::Rules(Outcome::Win { winner, .. }) => {
            let bs = r.bs_index(winner);
            match &r.result {
                RecordedResult::Winner(w) if *w == bs => summary.win_agrees += 1,
                RecordedResult::Winner(w) => {
                    summary.win_disagrees += 1;
                    failures.push(Failure {
                        record: name,
                        line: last_line,
                        status: "disagrees".into(),
                        kind: "disagrees".into(),
                        reason: format!(
                            "the rules give the win to {} (P{bs}), the record to {} (P{w})",
                            r.players[bs], r.players[*w]
                        ),
                        artefact: false,
                    });
                }
                RecordedResult::Draw => {
                    summary.win_record_says_draw += 1;
                    failures.push(Failure {
                        record: name,
                        line: last_line,
                        status: "record says draw".into(),
                        kind: "record says draw".into(),
                        reason: format!(
                            "the rules give the win to {} (P{bs}) at the last move, the record says draw",
                            r.players[bs]
                        ),
                        artefact: false,
                    });
                }
                RecordedResult::None => summary.win_unrecorded += 1,
                RecordedResult::Unreadable(_) => summary.win_result_unreadable += 1,
            }
        }
        Ending::Rules(Outcome::Draw(DrawReason::Repetition)) => {
            if let RecordedResult::Winner(w) = r.result {
                summary.win_disagrees += 1;
                failures.push(Failure {
                    record: name,
                    line: last_line,
                    status: "disagrees".into(),
                    kind: "disagrees".into(),
                    reason: format!(
                        "the rules draw the game by threefold repetition, the record gives the win to {} (P{w})",
                        r.players[w]
                    ),
                    artefact: false,
                });
            } else {
                summary.draw_by_repetition += 1;
            }
        }
        Ending::Rules(Outcome::Draw(_)) => summary.ended_without_win.unfinished += 1,
        Ending::Resigned(_) => summary.ended_without_win.resigned += 1,
        Ending::WinOnTime(_) => summary.ended_without_win.win_on_time += 1,
        Ending::Unfinished => summary.ended_without_win.unfinished += 1,
    }
}

/// Replays every record under `paths`; returns the summary and the failures.
pub fn replay_all(
    paths: &[PathBuf],
    progress: bool,
    print_moves: bool,
) -> anyhow::Result<(Summary, Vec<Failure>)> {
    let sources = collect(paths)?;
    let bar = if progress {
        let bar = ProgressBar::new(sources.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} records  {elapsed_precise}  {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut loader = Loader::default();
    let mut summary = Summary::default();
    let mut failures = Vec::new();
    for source in &sources {
        let verdict = match loader.load(source) {
            Ok(text) => match import_any(&text) {
                Ok(r) if print_moves => {
                    match &r {
                        AnyImported::Narrow(r) => print_record(&source.name(), r),
                        AnyImported::Wide(r) => print_record(&source.name(), r),
                        AnyImported::Huge(r) => print_record(&source.name(), r),
                    }
                    Verdict::Replayed(Box::new(r))
                }
                Ok(r) => Verdict::Replayed(Box::new(r)),
                Err(e) => Verdict::Rejected(e),
            },
            Err(reason) => Verdict::Rejected(ImportError {
                kind: RejectKind::Syntax,
                line: 0,
                detail: reason,
                after_undo_or_edit: false,
            }),
        };
        tally(&mut summary, &mut failures, source.name(), verdict);
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok((summary, failures))
}

/// True when the run found something the project must look at: a record that disagrees, or a
/// rejected record that is neither an artefact of undo/edit gestures nor a listed anomaly.
pub fn has_problems(summary: &Summary, failures: &[Failure], known_used: bool) -> bool {
    if known_used {
        return !summary.unexpected.is_empty();
    }
    failures.iter().any(|f| !f.artefact)
}

/// Runs `zertz replay`. Returns the process exit status.
pub fn run(args: ReplayArgs) -> anyhow::Result<i32> {
    let progress = std::io::stderr().is_terminal() && !args.json;
    let (mut summary, failures) = replay_all(&args.paths, progress, args.moves)?;
    if let Some(path) = &args.known {
        let known = read_known(path)?;
        apply_known(&mut summary, &failures, &known);
    }
    if args.json {
        let mut value = serde_json::to_value(&summary)?;
        if args.failures {
            value["failures"] = serde_json::to_value(&failures)?;
        }
        println!("{value}");
    } else {
        print_summary(&summary);
        if args.failures {
            println!();
            for f in &failures {
                println!(
                    "{}:{}: {}: {}: {}",
                    f.record, f.line, f.status, f.kind, f.reason
                );
            }
        }
    }
    Ok(if has_problems(&summary, &failures, args.known.is_some()) {
        1
    } else {
        0
    })
}

fn print_summary(s: &Summary) {
    println!("records read                 {:>7}", s.records_read);
    println!("replayed to the end          {:>7}", s.replayed_to_end);
    println!("  win, agrees with record    {:>7}", s.win_agrees);
    println!("  win, disagrees             {:>7}", s.win_disagrees);
    println!("  win, no result recorded    {:>7}", s.win_unrecorded);
    println!(
        "  win, result names no one   {:>7}",
        s.win_result_unreadable
    );
    println!("  win, record says draw      {:>7}", s.win_record_says_draw);
    println!("  draw by repetition         {:>7}", s.draw_by_repetition);
    println!(
        "  no win: resigned           {:>7}",
        s.ended_without_win.resigned
    );
    println!(
        "  no win: win on time        {:>7}",
        s.ended_without_win.win_on_time
    );
    println!(
        "  no win: unfinished         {:>7}",
        s.ended_without_win.unfinished
    );
    println!("rejected                     {:>7}", s.rejected);
    println!("  of which artefacts         {:>7}", s.rejected_artefacts);
    for (reason, n) in &s.rejections {
        println!("    {n:>6}  {reason}");
    }
    println!("notes");
    println!("  moves after the end        {:>7}", s.with_moves_after_end);
    println!("  undo gestures honoured     {:>7}", s.with_undo_gestures);
    println!("  null gestures skipped      {:>7}", s.with_null_gestures);
    if s.known_anomalies > 0 || !s.unexpected.is_empty() {
        println!("known anomalies matched      {:>7}", s.known_anomalies);
        println!("unexpected                   {:>7}", s.unexpected.len());
        for u in &s.unexpected {
            println!("  {u}");
        }
    }
}

/// Prints a replayed record move by move.
fn print_record<S: LayoutWidth>(name: &str, r: &Imported<S>) {
    println!(
        "{name}: {} vs {} ({}), first P{}",
        r.players[0], r.players[1], r.variant, r.first
    );
    let game = &r.game;
    for (i, (turn, position)) in game.turns().iter().zip(game.positions()).enumerate() {
        let text = zertz::notation::official::turn_text(position, turn);
        let after = &game.positions()[i + 1];
        println!(
            "  {:>3}. line {:>4}  P{} {:<28} captures P1 {} P2 {}  supply {}",
            i + 1,
            r.lines.get(i).copied().unwrap_or(0),
            r.bs_index(position.to_move()),
            text,
            after.captures(zertz::Player::One),
            after.captures(zertz::Player::Two),
            after.supply()
        );
    }
    println!("  final: {}", game.position());
    println!("  ending: {:?}; result text: {:?}", r.ending, r.result_text);
}
