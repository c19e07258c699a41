//! A node that cannot keep up sheds new work (issue 41): while it is behind with storing
//! (`games::load`: too many commits in flight), new games and matches, and joins, are answered
//! 503 with `Retry-After: 1`, so that the games already being played keep their moves flowing
//! rather than every game slowing down together. Reads, moves and everything else pass. Runs
//! on the node doing the work: inside the cross-node proxy, so a request passed on is judged by
//! the node holding its game.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::games::hub::Hub;
use crate::http::error::error;

/// What a refused request is told.
pub const BUSY: &str = "this server is behind with storing moves: new games and joins are \
                        refused for a moment; ask again in a second";

/// Whether `method` `path` asks for new work: a new game or match, or a seat in one.
pub fn is_new_work(method: &Method, path: &str) -> bool {
    if method != Method::POST {
        return false;
    }
    let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    matches!(
        parts.as_slice(),
        ["", "api", "games" | "matches"] | ["", "api", "games" | "matches", _, "join"]
    )
}

/// Refuses new work with 503 and `Retry-After: 1` while this node is busy.
pub async fn new_work(State(hub): State<Arc<Hub>>, request: Request, next: Next) -> Response {
    if !hub.load().busy() || !is_new_work(request.method(), request.uri().path()) {
        return next.run(request).await;
    }
    tracing::debug!(
        in_flight = hub.load().in_flight(),
        "busy: {} {} refused",
        request.method(),
        request.uri().path()
    );
    let mut response = error(
        axum::http::StatusCode::SERVICE_UNAVAILABLE,
        BUSY.to_string(),
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::StatusCode;
    use axum::routing::post;
    use tower::ServiceExt;

    use crate::config::Config;
    use crate::games::hub::temporary_hub;

    #[test]
    fn new_work_is_a_new_game_or_match_or_a_join() {
        for path in [
            "/api/games",
            "/api/games/",
            "/api/matches",
            "/api/games/abc/join",
        ] {
            assert!(is_new_work(&Method::POST, path), "{path}");
        }
        assert!(is_new_work(&Method::POST, "/api/matches/abc/join"));
        for path in [
            "/api/games/abc/action",
            "/api/games/abc",
            "/api/accounts",
            "/",
        ] {
            assert!(!is_new_work(&Method::POST, path), "{path}");
        }
        assert!(!is_new_work(&Method::GET, "/api/games"), "reads pass");
    }

    async fn status(app: &axum::Router, path: &str) -> (StatusCode, Option<String>) {
        let request = Request::builder()
            .method(Method::POST)
            .uri(path)
            .body(Body::empty())
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        let retry = response
            .headers()
            .get(header::RETRY_AFTER)
            .map(|v| v.to_str().unwrap().to_string());
        (response.status(), retry)
    }

    #[tokio::test]
    async fn a_busy_node_refuses_new_games_and_joins_and_lets_moves_through() {
        let config = Config {
            busy_commits: 2,
            ..Config::default()
        };
        let (_dir, hub) = temporary_hub(config).await;
        let app = axum::Router::new()
            .route("/api/games", post(|| async { StatusCode::CREATED }))
            .route("/api/games/{id}/join", post(|| async { StatusCode::OK }))
            .route("/api/games/{id}/action", post(|| async { StatusCode::OK }))
            .layer(axum::middleware::from_fn_with_state(
                Arc::clone(&hub),
                new_work,
            ));
        assert_eq!(
            status(&app, "/api/games").await,
            (StatusCode::CREATED, None)
        );
        // Two commits in flight: the node is behind.
        let first = hub.load().commit_started();
        let second = hub.load().commit_started();
        let refused = (StatusCode::SERVICE_UNAVAILABLE, Some("1".to_string()));
        assert_eq!(status(&app, "/api/games").await, refused);
        assert_eq!(status(&app, "/api/games/abc/join").await, refused);
        assert_eq!(
            status(&app, "/api/games/abc/action").await,
            (StatusCode::OK, None),
            "moves go on"
        );
        drop(first);
        assert_eq!(
            status(&app, "/api/games").await,
            (StatusCode::CREATED, None)
        );
        drop(second);
    }

    /// The bound of the queue of moves: past `--max-commits` commits in flight, a player's move
    /// is refused (503, `Retry-After: 1`, the reason in the message) and nothing is played;
    /// once the queue is back under its bound, the same move is played.
    #[tokio::test]
    async fn a_node_at_its_bound_refuses_moves_until_its_queue_shortens() {
        use crate::accounts::viewer::Payer;
        use crate::games::clock::ClockSpec;
        use crate::games::hub::HubError;
        use crate::games::model::{Action, Credential, GameSettings};
        use crate::http::error::ApiError;
        use axum::response::IntoResponse;

        let config = Config {
            busy_commits: 1,
            max_commits: 2,
            ..Config::default()
        };
        let (_dir, hub) = temporary_hub(config).await;
        let settings = GameSettings::for_tests(ClockSpec::Unlimited {});
        let (id, [ann, _]) = crate::games::hub::guests_game(&hub, settings).await;
        let payer = Payer::named("test");
        let play = || {
            hub.act(
                &id,
                Credential::Token(&ann),
                Action::Move {
                    text: "Wd4,a1".into(),
                },
                &payer,
            )
        };
        // Two commits in flight: the queue is at its bound.
        let first = hub.load().commit_started();
        let second = hub.load().commit_started();
        let e = play().await.unwrap_err();
        assert!(matches!(e, HubError::Busy(_)), "{e:?}");
        let message = e.to_string();
        assert!(
            message.contains("behind with storing moves (2 waiting, at most 2)")
                && message.contains("not played"),
            "{message}"
        );
        let response = ApiError::from(e).into_response();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            response
                .headers()
                .get(header::RETRY_AFTER)
                .map(|v| v.to_str().unwrap()),
            Some("1")
        );
        assert_eq!(hub.room(&id).await.unwrap().game.turns().len(), 0);
        // One commit done: under the bound (still busy: new games wait), the move is played.
        drop(first);
        assert!(hub.load().busy() && !hub.load().full());
        play()
            .await
            .expect("played once the queue is under its bound");
        assert_eq!(hub.room(&id).await.unwrap().game.turns().len(), 1);
        drop(second);
    }
}
