//! The explorer's leaves packed into buckets: the positions one game reached (see
//! `store::explorer`) are stored as a few thousand rows of bytes instead of a row each.
//!
//! A position's bucket is the top [`BUCKET_BITS`] bits of its key (keys are hashes, so the
//! buckets fill evenly). A bucket's bytes are its leaves sorted by position, each
//! `position (8 bytes) | game number (8 bytes) | mover (1 byte) | move length (1 byte) | move`,
//! integers big-endian. Importing BoardSpace's 18,000 records writes 16,384 buckets where it
//! wrote 421,254 rows (the rows were a quarter of the import's CPU); answering a position reads
//! one bucket of a few dozen leaves. Adding one finished game rewrites the buckets of its
//! positions, a few kilobytes each.
//!
//! This module is the format and the merge; the stores read and write the bytes.

use crate::explorer::store::{ExplorerGame, Leaf, MoveRow, leaf_row};
use crate::store::StoreError;

/// Bits of a position key that choose its bucket: 16,384 buckets.
pub const BUCKET_BITS: u32 = 14;

/// Bytes of a leaf before its move's text.
const HEAD: usize = 18;

/// The bucket of a position key: its top [`BUCKET_BITS`] bits, as a signed number (so that
/// buckets sort as their keys do, and SQL's `position >> 50` gives the same number).
pub fn bucket_of(position: i64) -> i64 {
    position >> (64 - BUCKET_BITS)
}

/// A leaf as stored: a position one game reached, the game's number, who moved (0 for player
/// one) and the move in the canonical frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredLeaf<'a> {
    /// The position's key.
    pub position: i64,
    /// `explorer_games.num` of the game.
    pub game: i64,
    /// 0: player one moved, 1: player two.
    pub mover: u8,
    /// The move (`zertz::symmetry::move_code`).
    pub mv: &'a str,
}

fn corrupt(what: &str) -> StoreError {
    StoreError::Write(format!("explorer: a bucket of leaves is damaged: {what}"))
}

/// The leaves of a bucket's bytes, in order; an error names what is wrong with the bytes.
pub fn leaves(mut bytes: &[u8]) -> impl Iterator<Item = Result<StoredLeaf<'_>, StoreError>> {
    std::iter::from_fn(move || {
        if bytes.is_empty() {
            return None;
        }
        if bytes.len() < HEAD {
            bytes = &[];
            return Some(Err(corrupt("it ends inside a leaf")));
        }
        let int = |b: &[u8]| i64::from_be_bytes(b.try_into().unwrap_or_default());
        let (position, game, mover, len) =
            (int(&bytes[..8]), int(&bytes[8..16]), bytes[16], bytes[17]);
        let end = HEAD + len as usize;
        let Some(text) = bytes.get(HEAD..end) else {
            bytes = &[];
            return Some(Err(corrupt("a move runs past its end")));
        };
        bytes = &bytes[end..];
        Some(match std::str::from_utf8(text) {
            Ok(mv) => Ok(StoredLeaf {
                position,
                game,
                mover,
                mv,
            }),
            Err(_) => Err(corrupt("a move is not text")),
        })
    })
}

/// The leaf of `position` in a bucket's bytes, if it has one.
pub fn find(bytes: &[u8], position: i64) -> Result<Option<StoredLeaf<'_>>, StoreError> {
    for leaf in leaves(bytes) {
        let leaf = leaf?;
        if leaf.position >= position {
            return Ok((leaf.position == position).then_some(leaf));
        }
    }
    Ok(None)
}

fn push(out: &mut Vec<u8>, leaf: &StoredLeaf<'_>) -> Result<(), StoreError> {
    let len = u8::try_from(leaf.mv.len()).map_err(|_| {
        StoreError::Write(format!(
            "explorer: the move {} is too long for a leaf ({} bytes, at most 255)",
            leaf.mv,
            leaf.mv.len()
        ))
    })?;
    out.extend_from_slice(&leaf.position.to_be_bytes());
    out.extend_from_slice(&leaf.game.to_be_bytes());
    out.push(leaf.mover);
    out.push(len);
    out.extend_from_slice(leaf.mv.as_bytes());
    Ok(())
}

/// A bucket's bytes with `new` leaves added (`new` sorted by position, all of this bucket).
/// A new leaf whose position already has one (in the bucket, or earlier in `new`) is not
/// added: its index in `new` is returned, for its game to be counted in a row instead.
pub fn merge(existing: &[u8], new: &[StoredLeaf<'_>]) -> Result<(Vec<u8>, Vec<usize>), StoreError> {
    let mut out = Vec::with_capacity(existing.len() + new.len() * (HEAD + 8));
    let mut taken = Vec::new();
    let mut old = leaves(existing).peekable();
    let mut last: Option<i64> = None;
    for (i, leaf) in new.iter().enumerate() {
        while let Some(o) = old.next_if(|o| o.as_ref().map_or(true, |o| o.position < leaf.position))
        {
            let o = o?;
            push(&mut out, &o)?;
            last = Some(o.position);
        }
        let here = matches!(old.peek(), Some(Ok(o)) if o.position == leaf.position);
        if here || last == Some(leaf.position) {
            taken.push(i);
            continue;
        }
        push(&mut out, leaf)?;
        last = Some(leaf.position);
    }
    for o in old {
        push(&mut out, &o?)?;
    }
    Ok((out, taken))
}

/// One bucket's share of a batch's leaves.
#[derive(Debug)]
pub struct Run<'a> {
    /// The bucket.
    pub bucket: i64,
    /// Its new leaves, in key order, with their games' numbers.
    pub leaves: Vec<StoredLeaf<'a>>,
    /// The batch's leaf each of them comes from.
    pub from: Vec<&'a Leaf>,
}

impl Run<'_> {
    /// The rows standing for the leaves [`merge`] did not add (`taken`, indices in this run):
    /// their positions already had a leaf, so their games are counted in rows.
    pub fn taken_rows(&self, taken: &[usize], games: &[ExplorerGame]) -> Vec<MoveRow> {
        taken
            .iter()
            .map(|&i| {
                let l = self.from[i];
                leaf_row(l.position, l.mover, &l.mv, &games[l.game as usize])
            })
            .collect()
    }
}

/// A batch's leaves by bucket, in key order, each with its game's number (`num` of its
/// index in the batch; a leaf naming no game of the batch is an error).
pub fn runs(leaves: &[Leaf], num: impl Fn(u32) -> Option<i64>) -> Result<Vec<Run<'_>>, StoreError> {
    let mut order: Vec<&Leaf> = leaves.iter().collect();
    // Stable: two leaves of one position keep the batch's order (the first is the leaf).
    order.sort_by_key(|l| l.position);
    let mut out: Vec<Run<'_>> = Vec::new();
    for leaf in order {
        let game = num(leaf.game).ok_or_else(|| {
            StoreError::Write(format!(
                "explorer: a leaf names game {} that the batch does not have",
                leaf.game
            ))
        })?;
        let bucket = bucket_of(leaf.position);
        if out.last().is_none_or(|r| r.bucket != bucket) {
            out.push(Run {
                bucket,
                leaves: Vec::new(),
                from: Vec::new(),
            });
        }
        let run = out.last_mut().expect("a run was just pushed");
        run.leaves.push(StoredLeaf {
            position: leaf.position,
            game,
            mover: leaf.mover,
            mv: &leaf.mv,
        });
        run.from.push(leaf);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(position: i64, game: i64, mv: &str) -> StoredLeaf<'_> {
        StoredLeaf {
            position,
            game,
            mover: (game % 2) as u8,
            mv,
        }
    }

    #[test]
    fn buckets_follow_the_order_of_keys() {
        assert_eq!(bucket_of(i64::MIN), -(1 << (BUCKET_BITS - 1)));
        assert_eq!(bucket_of(i64::MAX), (1 << (BUCKET_BITS - 1)) - 1);
        assert_eq!(bucket_of(-1), -1);
        assert_eq!(bucket_of(0), 0);
        let keys = [i64::MIN, -5 << 52, -1, 0, 7, 3 << 55, i64::MAX];
        for w in keys.windows(2) {
            assert!(bucket_of(w[0]) <= bucket_of(w[1]));
        }
    }

    #[test]
    fn merged_leaves_read_back_in_order_and_a_taken_position_is_refused() {
        let (bytes, taken) = merge(&[], &[leaf(-3, 1, "w1.2"), leaf(5, 2, "x3.014")]).unwrap();
        assert!(taken.is_empty());
        let (bytes, taken) = merge(
            &bytes,
            &[
                leaf(-9, 3, "g4"),
                leaf(-3, 4, "b7"),
                leaf(0, 5, "w0"),
                leaf(0, 6, "w1"),
                leaf(9, 7, "b1.0"),
            ],
        )
        .unwrap();
        // -3 was there already; the second leaf of position 0 comes after the first.
        assert_eq!(taken, vec![1, 3]);
        let read: Vec<_> = leaves(&bytes).collect::<Result<_, _>>().unwrap();
        assert_eq!(
            read,
            vec![
                leaf(-9, 3, "g4"),
                leaf(-3, 1, "w1.2"),
                leaf(0, 5, "w0"),
                leaf(5, 2, "x3.014"),
                leaf(9, 7, "b1.0"),
            ]
        );
        assert_eq!(find(&bytes, 5).unwrap(), Some(leaf(5, 2, "x3.014")));
        assert_eq!(find(&bytes, 4).unwrap(), None);
        assert_eq!(find(&bytes, 10).unwrap(), None);
    }

    #[test]
    fn damaged_bytes_are_an_error_not_a_panic() {
        let (bytes, _) = merge(&[], &[leaf(1, 1, "w1.2")]).unwrap();
        for cut in 1..bytes.len() {
            let err = find(&bytes[..cut], 1).unwrap_err();
            assert!(err.to_string().contains("damaged"), "{err}");
        }
        assert!(merge(&bytes[..5], &[leaf(2, 1, "w1")]).is_err());
        let long = "x".repeat(300);
        assert!(merge(&[], &[leaf(1, 1, &long)]).is_err());
    }
}
