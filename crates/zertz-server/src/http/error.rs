//! Error answers shared by every route: a status and `{"error": message}`, the status of each
//! kind of malformed request, and the bearer token.

use axum::Json;
use axum::extract::rejection::{BytesRejection, FailedToBufferBody, JsonRejection, QueryRejection};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// An error answer: a status and `{"error": message}`.
pub struct ApiError(pub StatusCode, pub String);

/// The answer `status` with `{"error": message}`.
pub fn error(status: StatusCode, message: String) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = error(self.0, self.1);
        // Every 503 is a moment's trouble (a node behind, a game moving between nodes): say
        // when to ask again.
        if response.status() == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        response
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        let status = match &r {
            // The body failed to arrive: its deadline passed (`http::body`), or the client left.
            JsonRejection::BytesRejection(BytesRejection::FailedToBufferBody(
                FailedToBufferBody::UnknownBodyError(_),
            )) => StatusCode::REQUEST_TIMEOUT,
            JsonRejection::BytesRejection(_) => StatusCode::PAYLOAD_TOO_LARGE,
            JsonRejection::MissingJsonContentType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError(status, format!("request body: {}", r.body_text()))
    }
}

/// A route's answer or its error.
pub type ApiResult<T> = Result<T, ApiError>;

/// A 400 answer.
pub fn bad(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message.into())
}

/// The seat token from `Authorization: Bearer …`.
pub fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    value.strip_prefix("Bearer ").map(|t| t.trim().to_string())
}

/// A query string that did not parse: 400 naming what was wrong.
pub fn bad_query(e: QueryRejection) -> ApiError {
    bad(e.body_text())
}
