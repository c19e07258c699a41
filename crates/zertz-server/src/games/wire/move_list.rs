//! A game's moves in official notation, as its state shows them: one buffer of text and where
//! each move ends in it. A view is made for every event, each with the moves of the view
//! before it and perhaps one more; copying two short buffers costs less than copying (or
//! sharing) one string per move, each somewhere else in memory.

use serde::ser::{Serialize, SerializeSeq, Serializer};

/// The moves of a game, in order; serialised as a JSON array of strings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveList {
    /// Every move's text, one after the other.
    text: String,
    /// Where each move's text ends in `text`.
    ends: Vec<usize>,
}

impl MoveList {
    /// The number of moves.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// No move yet.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Move `i` (from 0).
    pub fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        self.text.get(start..end)
    }

    /// The moves in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// Adds a move at the end.
    pub fn push(&mut self, mv: &str) {
        self.text.push_str(mv);
        self.ends.push(self.text.len());
    }

    /// The first `n` moves (all of them if there are fewer).
    pub fn first(&self, n: usize) -> MoveList {
        let n = n.min(self.len());
        let end = n.checked_sub(1).map_or(0, |last| self.ends[last]);
        MoveList {
            text: self.text[..end].to_string(),
            ends: self.ends[..n].to_vec(),
        }
    }

    /// These moves and then `mv`, in buffers sized for them.
    pub fn and(&self, mv: &str) -> MoveList {
        let mut text = String::with_capacity(self.text.len() + mv.len());
        text.push_str(&self.text);
        let mut ends = Vec::with_capacity(self.len() + 1);
        ends.extend_from_slice(&self.ends);
        let mut list = MoveList { text, ends };
        list.push(mv);
        list
    }

    /// How many moves from the start both lists share.
    pub fn common_prefix(&self, other: &MoveList) -> usize {
        (0..self.len().min(other.len()))
            .take_while(|&i| self.ends[i] == other.ends[i] && self.get(i) == other.get(i))
            .count()
    }

    /// The moves from `from` on (none if `from` is past the end), to serialise.
    pub fn tail(&self, from: usize) -> Tail<'_> {
        Tail {
            list: self,
            from: from.min(self.len()),
        }
    }
}

impl<S: AsRef<str>> FromIterator<S> for MoveList {
    fn from_iter<I: IntoIterator<Item = S>>(moves: I) -> MoveList {
        let mut list = MoveList::default();
        for mv in moves {
            list.push(mv.as_ref());
        }
        list
    }
}

impl Serialize for MoveList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.tail(0).serialize(serializer)
    }
}

/// The moves of a list from one of them on, serialised as a JSON array of strings.
#[derive(Clone, Copy, Debug)]
pub struct Tail<'a> {
    list: &'a MoveList,
    from: usize,
}

impl Serialize for Tail<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.list.len() - self.from))?;
        for mv in self.list.iter().skip(self.from) {
            seq.serialize_element(mv)?;
        }
        seq.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(moves: &[&str]) -> MoveList {
        moves.iter().collect()
    }

    #[test]
    fn holds_each_move_as_given() {
        let l = list(&["Wd4,a1", "x e3 c5", "", "B-"]);
        assert_eq!(l.len(), 4);
        assert_eq!(
            l.iter().collect::<Vec<_>>(),
            ["Wd4,a1", "x e3 c5", "", "B-"]
        );
        assert_eq!(l.get(1), Some("x e3 c5"));
        assert_eq!(l.get(4), None);
        assert!(MoveList::default().is_empty());
    }

    #[test]
    fn first_and_and_build_the_lists_a_view_carries() {
        let l = list(&["Wd4,a1", "Gc3,g1", "x d4 b2"]);
        assert_eq!(l.first(2), list(&["Wd4,a1", "Gc3,g1"]));
        assert_eq!(l.first(0), MoveList::default());
        assert_eq!(l.first(9), l);
        assert_eq!(
            l.first(2).and("Bb1,a4"),
            list(&["Wd4,a1", "Gc3,g1", "Bb1,a4"])
        );
    }

    #[test]
    fn the_common_prefix_compares_texts_not_lengths() {
        let a = list(&["Wd4,a1", "Gc3,g1"]);
        assert_eq!(a.common_prefix(&list(&["Wd4,a1", "Gc3,g1", "x"])), 2);
        // Same lengths, another move.
        assert_eq!(a.common_prefix(&list(&["Wd4,a1", "Gc3,g2"])), 1);
        // Same text, cut elsewhere.
        assert_eq!(list(&["ab", "c"]).common_prefix(&list(&["a", "bc"])), 0);
        assert_eq!(a.common_prefix(&MoveList::default()), 0);
    }

    #[test]
    fn serialises_as_an_array_of_strings() {
        let l = list(&["Wd4,a1", "say \"hi\""]);
        assert_eq!(
            serde_json::to_string(&l).unwrap(),
            r#"["Wd4,a1","say \"hi\""]"#
        );
        assert_eq!(
            serde_json::to_string(&l.tail(1)).unwrap(),
            r#"["say \"hi\""]"#
        );
        assert_eq!(serde_json::to_string(&l.tail(5)).unwrap(), "[]");
    }
}
