//! The end of a game in PostgreSQL, inside the transaction of its result: the two ratings are
//! locked (`FOR UPDATE`) while they are read and rewritten, so that two games of one player
//! ending at once are rated one after the other.

use crate::store::StoreError;
use crate::store::game_end::{
    GameEnd, RATING_COLUMNS, RatingPolicy, RatingRow, end_writes, rating_row,
};
use crate::store::postgres::sql::run;

/// Writes what the end of a game leaves, on the transaction that stores its result.
pub(crate) async fn write_end(
    conn: &mut sqlx::PgConnection,
    end: &GameEnd,
    rating: RatingPolicy,
) -> Result<(), StoreError> {
    let mut current: [Option<RatingRow>; 2] = [None, None];
    if let Some(pool) = end.pool.as_ref().filter(|_| end.rated) {
        for (seat, account) in end.accounts.iter().enumerate() {
            let Some(account) = account else { continue };
            let row = sqlx::query(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE account_id = $1 AND pool = $2 \
                 FOR UPDATE"
            ))
            .bind(account)
            .bind(pool)
            .fetch_optional(&mut *conn)
            .await?;
            current[seat] = row.as_ref().map(rating_row).transpose()?;
        }
    }
    let (ratings, played) = rating(end, current);
    for statement in end_writes(end, &ratings, &played) {
        run(&mut *conn, statement).await?;
    }
    Ok(())
}
