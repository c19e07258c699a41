//! The end of a game in PostgreSQL, inside the transaction of its result: the two ratings are
//! locked (`FOR UPDATE`) while they are read and rewritten, so that two games of one player
//! ending at once are rated one after the other.

use crate::store::StoreError;
use crate::store::game_end::{
    GameEnd, RATING_COLUMNS, RatingPolicy, RatingRow, end_writes, rated_seats, rating_row,
};
use crate::store::postgres::sql::run;

/// Writes what the end of a game leaves, on the transaction that stores its result.
pub(crate) async fn write_end(
    conn: &mut sqlx::PgConnection,
    end: &GameEnd,
    rating: RatingPolicy,
) -> Result<(), StoreError> {
    let mut current: [Option<RatingRow>; 2] = [None, None];
    for (seat, account, pool) in rated_seats(end) {
        let row = sqlx::query(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE account_id = $1 AND pool = $2 FOR UPDATE"
        ))
        .bind(account)
        .bind(pool)
        .fetch_optional(&mut *conn)
        .await?;
        current[seat] = row.as_ref().map(rating_row).transpose()?;
    }
    for statement in end_writes(end, rating, current) {
        run(&mut *conn, statement).await?;
    }
    Ok(())
}
