//! Saved studies (docs/study.md, "Studies"): a named list of chapters, each a tree of
//! variations, owned by the account that saved it. Anyone with its link reads it; only the
//! owner changes or deletes it; any logged-in player copies it to an account of their own.
//! Here are the rules and the limits; the routes are in `http::studies`, the storage in
//! `store::studies`.

pub mod postgres;
pub mod quota;
pub mod routes;
pub(crate) mod sql;
pub mod sqlite;
pub mod store;

use serde_json::value::RawValue;

use crate::store::StoreError;
use crate::study::studies::store::StudyStore;
use crate::study::studies::store::{ChapterRow, StudyRow, StudySummary};
use crate::study::trees::check::{self as tree_check, TreeLimits};
use crate::token;
use crate::util::now_ms;

/// Characters in a study's or a chapter's name.
pub const MAX_NAME_CHARS: usize = 100;
/// Chapters in a study.
pub const MAX_CHAPTERS: usize = 64;
/// Moves in one chapter's tree.
pub const MAX_MOVES: usize = 2_000;
/// Moves in one line of a tree (from its start to a leaf).
pub const MAX_LINE: usize = 400;
/// Characters of one comment.
pub const MAX_COMMENT_CHARS: usize = 2_000;
/// Headers of a tree.
pub const MAX_HEADERS: usize = 32;
/// Characters of a header's value.
pub const MAX_HEADER_CHARS: usize = 200;
/// Bytes of all of a study's trees together, as stored.
pub const MAX_BYTES: usize = 512 * 1024;
/// Studies one account may keep.
pub const MAX_PER_ACCOUNT: i64 = 100;

/// The bounds of one chapter's tree.
pub const TREE_LIMITS: TreeLimits = TreeLimits {
    moves: MAX_MOVES,
    line: MAX_LINE,
    comment_chars: MAX_COMMENT_CHARS,
    headers: MAX_HEADERS,
    header_chars: MAX_HEADER_CHARS,
};

/// Stack of the thread that reads trees: a line of [`MAX_LINE`] moves is some 800 levels of
/// nested JSON, read and written back recursively.
const CHECK_STACK: usize = 64 << 20;

/// Why a study request was refused.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    /// The study or a tree is malformed, or breaks a limit of its shape.
    #[error("{0}")]
    Invalid(String),
    /// The trees together are larger than a study may be.
    #[error("{0}")]
    TooLarge(String),
    /// Only the owner may do this.
    #[error("{0}")]
    Forbidden(String),
    /// No such study (or player).
    #[error("{0}")]
    NotFound(String),
    /// The account already keeps as many studies as it may.
    #[error("{0}")]
    TooMany(String),
    /// The database failed.
    #[error("storage: {0}")]
    Storage(#[from] StoreError),
}

impl StudyError {
    /// The HTTP status of the refusal.
    pub fn status(&self) -> u16 {
        match self {
            StudyError::Invalid(_) => 400,
            StudyError::TooLarge(_) => 413,
            StudyError::Forbidden(_) => 403,
            StudyError::NotFound(_) => 404,
            StudyError::TooMany(_) => 409,
            StudyError::Storage(_) => 503,
        }
    }
}

/// A chapter as a client sends it: a name and a tree (JSON, read by [`tree_check`]).
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChapterInput {
    /// Its name (`Chapter N` when empty).
    #[serde(default)]
    pub name: String,
    /// Its tree, as sent.
    pub tree: Box<RawValue>,
}

/// A study as a client sends it to save it.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudyInput {
    /// Its name.
    pub name: String,
    /// Its chapters, in order.
    pub chapters: Vec<ChapterInput>,
}

/// A name as stored: trimmed, 1 to [`MAX_NAME_CHARS`] characters, no control characters. Any
/// other text (HTML included) is kept as it is: the pages show names as text.
fn clean_name(name: &str, what: &str) -> Result<String, StudyError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(StudyError::Invalid(format!(
            "{what} is empty: give it a name"
        )));
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(StudyError::Invalid(format!(
            "{what} has {chars} characters; at most {MAX_NAME_CHARS}"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(StudyError::Invalid(format!(
            "{what} holds a control character (a line break or a tab): a name is one line"
        )));
    }
    Ok(name.to_string())
}

/// A study's name, and its chapters checked and written back, ready to store.
fn checked_input(input: StudyInput) -> Result<(String, Vec<ChapterRow>), StudyError> {
    let name = clean_name(&input.name, "the study's name")?;
    let n = input.chapters.len();
    if n == 0 {
        return Err(StudyError::Invalid(
            "the study has no chapter: it needs at least one".into(),
        ));
    }
    if n > MAX_CHAPTERS {
        return Err(StudyError::Invalid(format!(
            "the study has {n} chapters; at most {MAX_CHAPTERS}"
        )));
    }
    let mut chapters = Vec::with_capacity(n);
    let mut bytes = 0usize;
    for (i, chapter) in input.chapters.into_iter().enumerate() {
        let number = i + 1;
        let chapter_name = if chapter.name.trim().is_empty() {
            format!("Chapter {number}")
        } else {
            clean_name(&chapter.name, &format!("the name of chapter {number}"))?
        };
        let checked = tree_check::check(chapter.tree.get(), &TREE_LIMITS)
            .map_err(|e| StudyError::Invalid(format!("chapter {number} ({chapter_name}): {e}")))?;
        bytes += checked.json.len();
        if bytes > MAX_BYTES {
            return Err(StudyError::TooLarge(format!(
                "the study's trees take more than {MAX_BYTES} bytes (reached at chapter \
                 {number}); split it into smaller studies"
            )));
        }
        chapters.push(ChapterRow {
            name: chapter_name,
            tree: checked.json,
        });
    }
    Ok((name, chapters))
}

/// [`checked_input`] on a thread of its own with a stack deep enough for the longest line.
async fn check_input(input: StudyInput) -> Result<(String, Vec<ChapterRow>), StudyError> {
    // Two checks at a time at most: a large study takes a core for a moment.
    static RUNNING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);
    let _permit = RUNNING
        .acquire()
        .await
        .map_err(|_| StudyError::Invalid("the server is stopping".into()))?;
    let (done, outcome) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("zertz-study-check".into())
        .stack_size(CHECK_STACK)
        .spawn(move || {
            let _ = done.send(checked_input(input));
        })
        .map_err(|e| StudyError::Storage(StoreError::Write(format!("starting a check: {e}"))))?;
    outcome
        .await
        .map_err(|_| StudyError::Invalid("the check of the study stopped unexpectedly".into()))?
}

/// The name of a copy: `NAME (copy)`, the name cut so that it fits.
pub fn copy_name(name: &str) -> String {
    const SUFFIX: &str = " (copy)";
    let room = MAX_NAME_CHARS - SUFFIX.chars().count();
    let kept: String = name.chars().take(room).collect();
    format!("{} {}", kept.trim_end(), SUFFIX.trim_start())
}

fn not_found(id: &str) -> StudyError {
    StudyError::NotFound(format!("no study has the id {id}"))
}

fn too_many() -> StudyError {
    StudyError::TooMany(format!(
        "you already keep {MAX_PER_ACCOUNT} studies, the most an account may: delete one first"
    ))
}

/// The studies of one store.
pub struct Studies<'a> {
    store: &'a dyn StudyStore,
}

impl<'a> Studies<'a> {
    /// The studies kept in `store`.
    pub fn new(store: &'a dyn StudyStore) -> Studies<'a> {
        Studies { store }
    }

    /// Stores a new study of `owner` (an account id) and returns its id.
    pub async fn create(&self, owner: &str, input: StudyInput) -> Result<String, StudyError> {
        let (name, chapters) = check_input(input).await?;
        self.insert(owner, name, chapters).await
    }

    async fn insert(
        &self,
        owner: &str,
        name: String,
        chapters: Vec<ChapterRow>,
    ) -> Result<String, StudyError> {
        let now = now_ms();
        let row = StudyRow {
            id: token::study_id(),
            name,
            owner_id: owner.to_string(),
            owner_name: String::new(),
            chapters,
            created_ms: now,
            updated_ms: now,
        };
        if !self.store.create_study(&row, MAX_PER_ACCOUNT).await? {
            return Err(too_many());
        }
        Ok(row.id)
    }

    /// The study with this id, for anyone who has it.
    pub async fn get(&self, id: &str) -> Result<StudyRow, StudyError> {
        if !token::is_plausible_id(id) {
            return Err(not_found(id));
        }
        self.store.study(id).await?.ok_or_else(|| not_found(id))
    }

    /// The study `id` if `account` owns it: 404 when there is none, 403 when it is another's.
    async fn owned(&self, id: &str, account: &str, doing: &str) -> Result<StudyRow, StudyError> {
        let study = self.get(id).await?;
        if study.owner_id != account {
            return Err(StudyError::Forbidden(format!(
                "only its owner, {}, may {doing} this study (copy it to have one of your own)",
                study.owner_name
            )));
        }
        Ok(study)
    }

    /// Replaces the name and chapters of study `id`, which `owner` must own; returns when it
    /// was saved.
    pub async fn update(
        &self,
        owner: &str,
        id: &str,
        input: StudyInput,
    ) -> Result<i64, StudyError> {
        self.owned(id, owner, "change").await?;
        let (name, chapters) = check_input(input).await?;
        let now = now_ms();
        if !self
            .store
            .update_study(id, owner, &name, &chapters, now)
            .await?
        {
            // Deleted between the look and the save.
            return Err(not_found(id));
        }
        Ok(now)
    }

    /// Deletes study `id`, which `owner` must own.
    pub async fn delete(&self, owner: &str, id: &str) -> Result<(), StudyError> {
        self.owned(id, owner, "delete").await?;
        if !self.store.delete_study(id, owner).await? {
            return Err(not_found(id));
        }
        Ok(())
    }

    /// Copies study `id` to the account `owner` as `NAME (copy)`; returns the copy's id. The
    /// trees were checked when the study was saved and are copied as they are.
    pub async fn copy(&self, owner: &str, id: &str) -> Result<String, StudyError> {
        let study = self.get(id).await?;
        self.insert(owner, copy_name(&study.name), study.chapters)
            .await
    }

    /// The studies of the account `owner`, the last saved first.
    pub async fn of_account(&self, owner: &str) -> Result<Vec<StudySummary>, StudyError> {
        Ok(self.store.account_studies(owner, MAX_PER_ACCOUNT).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_is_named_after_its_study_and_fits() {
        assert_eq!(copy_name("Openings"), "Openings (copy)");
        let long = "é".repeat(MAX_NAME_CHARS);
        let copy = copy_name(&long);
        assert_eq!(copy.chars().count(), MAX_NAME_CHARS);
        assert!(copy.ends_with(" (copy)"));
        assert!(clean_name(&copy, "x").is_ok());
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(clean_name("  <b>A</b> ", "n").unwrap(), "<b>A</b>");
        assert!(
            clean_name("   ", "the name")
                .unwrap_err()
                .to_string()
                .contains("empty")
        );
        let e = clean_name(&"x".repeat(MAX_NAME_CHARS + 1), "the name").unwrap_err();
        assert!(e.to_string().contains("101 characters"), "{e}");
        assert!(clean_name("a\nb", "n").is_err());
    }
}
