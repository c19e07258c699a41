//! Trees of variations, stateless: `POST /api/trees/import` reads a record (with or without
//! variations), a BoardSpace SGF (with or without variations) or a position string into the
//! tree's JSON; `POST /api/trees/export` writes a tree's JSON as SGF or as a record. The work
//! runs on a blocking thread: a large text takes a few milliseconds of CPU.

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, JsonRejection};
use axum::http::{HeaderMap, StatusCode, header};
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use zertz::tree::GameTree;

use crate::http::error::{ApiError, ApiResult, bad};
use crate::study::trees::json::{self as tree_json, TreeJson};

/// The routes of trees.
pub fn router<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    Router::new()
        .route("/api/trees/import", post(import))
        .route("/api/trees/export", post(export))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportBody {
    text: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExportBody {
    tree: TreeJson,
    format: String,
}

/// Runs `work` on a blocking thread.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    tokio::task::spawn_blocking(work).await.map_err(|e| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the conversion failed: {e}"),
        )
    })?
}

async fn import(body: Result<Json<ImportBody>, JsonRejection>) -> ApiResult<Json<TreeJson>> {
    let Json(body) = body?;
    blocking(move || {
        let tree = GameTree::from_text(&body.text).map_err(|e| bad(e.to_string()))?;
        TreeJson::from_tree(&tree)
            .map(Json)
            .map_err(|e| bad(e.to_string()))
    })
    .await
}

async fn export(headers: HeaderMap, body: Result<Bytes, BytesRejection>) -> ApiResult<Json<Value>> {
    // The body is read here rather than by `Json`, whose depth limit (128) is shallower than a
    // game's main line in this form.
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| {
            let v = v.trim();
            v.eq_ignore_ascii_case("application/json")
                || (v.starts_with("application/") && v.ends_with("+json"))
        });
    if !is_json {
        return Err(ApiError(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "request body: expected `Content-Type: application/json`".into(),
        ));
    }
    let bytes = body.map_err(|e| {
        ApiError(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("request body: {}", e.body_text()),
        )
    })?;
    blocking(move || {
        let body: ExportBody =
            tree_json::parse_json(&bytes).map_err(|e| bad(format!("request body: {e}")))?;
        let sgf = match body.format.as_str() {
            "sgf" => true,
            "record" => false,
            other => {
                return Err(bad(format!(
                    "format `{other}`: expected \"sgf\" or \"record\""
                )));
            }
        };
        let tree = body.tree.to_tree().map_err(|e| bad(format!("tree.{e}")))?;
        let text = if sgf {
            tree.to_sgf()
                .map_err(|e| bad(format!("this tree cannot be written as SGF: {e}")))?
        } else {
            tree.to_record_text()
        };
        Ok(Json(json!({ "text": text })))
    })
    .await
}
