-- The explorer's leaves packed by bucket (store/leaf_buckets.rs): the top 14 bits of a
-- position's key choose its bucket, and a bucket's bytes are its leaves in key order, each
-- position (8 bytes), game number (8 bytes), mover (1 byte), the move's length (1 byte) and
-- the move, integers big-endian. An import writes some 16,000 buckets instead of a row per leaf.

CREATE TABLE explorer_leaf_buckets (
    bucket INTEGER NOT NULL PRIMARY KEY,
    leaves BLOB    NOT NULL
) STRICT;

-- The leaves stored so far, moved into their buckets.
INSERT INTO explorer_leaf_buckets (bucket, leaves)
SELECT position >> 50,
       unhex(group_concat(printf('%016x%016x%02x%02x', position, game, mover,
                                 length(CAST(move AS BLOB))) || hex(move), '' ORDER BY position))
FROM explorer_leaves
GROUP BY position >> 50;

DROP TABLE explorer_leaves;
