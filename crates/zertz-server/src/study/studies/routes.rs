//! The routes of saved studies (docs/study.md, "Studies"): save, read, change, delete and copy
//! a study, and the list on a player's profile. Reading needs only the link; saving needs a
//! session; changing and deleting need the owner's. A request that changes something with the
//! session cookie must come from the site's pages (the cross-site check of `http::router`).

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use serde_json::json;
use serde_json::value::RawValue;

use crate::accounts::viewer::Viewer;
use crate::accounts::{Account, Accounts};
use crate::http::error::{ApiError, ApiResult};
use crate::study::studies::store::StudyStore;
use crate::study::studies::{MAX_BYTES, Studies, StudyError, StudyInput};
use axum::extract::FromRef;

/// The largest body of a save: the trees may take [`MAX_BYTES`] once written back, and a
/// client's spacing and lenient notation a little more.
pub const MAX_STUDY_BODY: usize = 2 * MAX_BYTES;

/// The studies' routes.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<crate::accounts::Accounts>: FromRef<S>,
    Arc<dyn StudyStore>: FromRef<S>,
    Arc<crate::study::Study>: FromRef<S>,
{
    Router::new()
        .route("/api/studies", post(create))
        .route("/api/studies/{id}", get(read).put(update).delete(delete))
        .route("/api/studies/{id}/copy", post(copy))
        .route("/api/players/{name}/studies", get(list))
        // Closer to the handlers than the API's general limit, so this one counts here.
        .layer(DefaultBodyLimit::max(MAX_STUDY_BODY))
}

impl From<StudyError> for ApiError {
    fn from(e: StudyError) -> ApiError {
        let status = StatusCode::from_u16(e.status()).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
        ApiError(status, e.to_string())
    }
}

/// The logged-in account, or 401 saying what needed it.
fn logged_in(viewer: Viewer, doing: &str) -> ApiResult<Account> {
    viewer.account.ok_or_else(|| {
        ApiError(
            StatusCode::UNAUTHORIZED,
            format!("{doing} needs an account: log in first"),
        )
    })
}

/// A study as read: the trees go out as they are stored (JSON text), without being read again.
#[derive(Serialize)]
struct StudyView<'a> {
    id: &'a str,
    name: &'a str,
    owner: &'a str,
    mine: bool,
    chapters: Vec<ChapterView<'a>>,
    created: i64,
    updated: i64,
}

#[derive(Serialize)]
struct ChapterView<'a> {
    name: &'a str,
    tree: &'a RawValue,
}

/// A study as listed on a profile.
#[derive(Serialize)]
struct StudyItem {
    id: String,
    name: String,
    chapters: i64,
    updated: i64,
}

/// Takes a new study from the allowances of the viewer's account and address (F1); `Some`: the
/// 429 that says how long to wait.
async fn new_study_refused(
    accounts: &crate::accounts::Accounts,
    study: &crate::study::Study,
    account: &Account,
    viewer: &Viewer,
) -> ApiResult<Option<Response>> {
    let taken = study
        .new_studies
        .take(
            accounts.store(),
            &account.id,
            viewer.address,
            crate::util::now_ms(),
        )
        .await
        .map_err(crate::accounts::AccountError::from)?;
    Ok(taken
        .err()
        .map(|(why, wait)| crate::http::limit::too_many(why, wait)))
}

async fn create(
    State(accounts): State<Arc<crate::accounts::Accounts>>,
    State(store): State<Arc<dyn StudyStore>>,
    State(study): State<Arc<crate::study::Study>>,
    viewer: Viewer,
    body: Result<Json<StudyInput>, JsonRejection>,
) -> ApiResult<Response> {
    let account = logged_in(viewer.clone(), "saving a study")?;
    let Json(input) = body?;
    if let Some(refused) = new_study_refused(&accounts, &study, &account, &viewer).await? {
        return Ok(refused);
    }
    let id = Studies::new(store.as_ref())
        .create(&account.id, input)
        .await?;
    Ok((StatusCode::CREATED, Json(json!({ "id": id }))).into_response())
}

async fn read(
    State(store): State<Arc<dyn StudyStore>>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let study = Studies::new(store.as_ref()).get(&id).await?;
    let mut chapters = Vec::with_capacity(study.chapters.len());
    for chapter in &study.chapters {
        let tree: &RawValue = serde_json::from_str(&chapter.tree).map_err(|e| {
            ApiError(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("study {id}: a stored tree is not JSON: {e}"),
            )
        })?;
        chapters.push(ChapterView {
            name: &chapter.name,
            tree,
        });
    }
    let mine = viewer
        .account
        .as_ref()
        .is_some_and(|a| a.id == study.owner_id);
    Ok(Json(StudyView {
        id: &study.id,
        name: &study.name,
        owner: &study.owner_name,
        mine,
        chapters,
        created: study.created_ms,
        updated: study.updated_ms,
    })
    .into_response())
}

async fn update(
    State(store): State<Arc<dyn StudyStore>>,
    viewer: Viewer,
    Path(id): Path<String>,
    body: Result<Json<StudyInput>, JsonRejection>,
) -> ApiResult<Response> {
    let account = logged_in(viewer, "changing a study")?;
    let Json(input) = body?;
    let updated = Studies::new(store.as_ref())
        .update(&account.id, &id, input)
        .await?;
    Ok(Json(json!({ "id": id, "updated": updated })).into_response())
}

async fn delete(
    State(store): State<Arc<dyn StudyStore>>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let account = logged_in(viewer, "deleting a study")?;
    Studies::new(store.as_ref())
        .delete(&account.id, &id)
        .await?;
    Ok(Json(json!({ "deleted": id })).into_response())
}

async fn copy(
    State(accounts): State<Arc<crate::accounts::Accounts>>,
    State(store): State<Arc<dyn StudyStore>>,
    State(study): State<Arc<crate::study::Study>>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let account = logged_in(viewer.clone(), "copying a study")?;
    if let Some(refused) = new_study_refused(&accounts, &study, &account, &viewer).await? {
        return Ok(refused);
    }
    let copy = Studies::new(store.as_ref()).copy(&account.id, &id).await?;
    Ok((StatusCode::CREATED, Json(json!({ "id": copy }))).into_response())
}

async fn list(
    State(store): State<Arc<dyn StudyStore>>,
    State(accounts): State<Arc<Accounts>>,
    Path(name): Path<String>,
) -> ApiResult<Response> {
    let player = accounts
        .named(&name)
        .await?
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no player is named {name}")))?;
    let studies = Studies::new(store.as_ref()).of_account(&player.id).await?;
    let items: Vec<StudyItem> = studies
        .into_iter()
        .map(|s| StudyItem {
            id: s.id,
            name: s.name,
            chapters: s.chapters,
            updated: s.updated_ms,
        })
        .collect();
    Ok(Json(items).into_response())
}
