//! The server's finished games for `zertz puzzles generate --db`: every game stored as
//! finished, rebuilt from its log as the server rebuilds it (`Room::from_stored`).

use zertz::Game;
use zertz_server::games::room::Room;
use zertz_server::store::Cursor;

/// Games read per page of the listing.
const PAGE: i64 = 200;

/// Every finished game of the database `db` (a SQLite file or a `postgres://` URL) with its
/// id. A game whose log cannot be rebuilt is reported on standard error and left out.
pub fn finished_games(db: &str) -> anyhow::Result<Vec<(String, Game)>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let store = zertz_server::app::store::open(db).await?;
        let mut out = Vec::new();
        let mut before: Option<Cursor> = None;
        loop {
            let page = store
                .list_games(Some("finished"), before.as_ref(), PAGE)
                .await?;
            let Some(last) = page.last() else { break };
            before = Some(Cursor {
                updated_ms: last.updated_ms,
                id: last.id.clone(),
            });
            for summary in &page {
                let (_, events) = store.load_game(&summary.id).await?;
                match Room::from_stored(&summary.id, &events) {
                    Ok(room) => out.push((summary.id.clone(), room.game)),
                    Err(e) => eprintln!("skipped game {}: {e}", summary.id),
                }
            }
        }
        Ok(out)
    })
}
