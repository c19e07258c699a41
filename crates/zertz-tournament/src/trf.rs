//! The FIDE tournament report format (TRF-2026, TRF16 and the TRF(x) extensions read by
//! pairing programs): reading and writing.
//!
//! Only the lines a pairing needs are interpreted: the `001` player lines, `XXR` (the number
//! of rounds; TRF-2026 `142` is read the same way) and `XXC` (`white1` or `black1`: the
//! colour of the first-ranked player in round 1; TRF-2026 `152 W|B` likewise). Every other
//! line is kept as it is and written back unchanged. Lines may end in CR, LF or CR LF.
//!
//! Columns are counted in characters from 1, as in the TRF description: a `001` line has the
//! start rank in columns 5-8, the name in 15-47, the rating in 49-52, the points in 81-84,
//! the rank in 86-89, and from column 92 one block of ten columns a round: the opponent's
//! start rank (4 columns, `0000` for none), a space, the colour (`w`, `b` or `-`), a space,
//! the result.

use std::fmt;

/// A colour in a game. White is the player who moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// The player who moves first (`w`).
    White,
    /// The player who moves second (`b`).
    Black,
}

impl Colour {
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// The result of one round for one player, as a TRF result code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResultCode {
    /// `1`: a win over the board.
    Win,
    /// `=`: a draw over the board.
    Draw,
    /// `0`: a loss over the board.
    Loss,
    /// `+`: a win by forfeit (the opponent did not play).
    ForfeitWin,
    /// `-`: a loss by forfeit.
    ForfeitLoss,
    /// `W`: a win in a game played but not rated.
    UnratedWin,
    /// `D`: a draw in a game played but not rated.
    UnratedDraw,
    /// `L`: a loss in a game played but not rated.
    UnratedLoss,
    /// `H`: a requested half-point bye.
    HalfBye,
    /// `F`: a full-point bye.
    FullBye,
    /// `U`: the pairing-allocated bye.
    PairingBye,
    /// `Z`: a zero-point bye (absent, withdrawn, not yet entered).
    ZeroBye,
}

impl ResultCode {
    /// Reads a result character.
    pub fn from_char(c: char) -> Option<ResultCode> {
        Some(match c {
            '1' => ResultCode::Win,
            '=' => ResultCode::Draw,
            '0' => ResultCode::Loss,
            '+' => ResultCode::ForfeitWin,
            '-' => ResultCode::ForfeitLoss,
            'W' | 'w' => ResultCode::UnratedWin,
            'D' | 'd' => ResultCode::UnratedDraw,
            'L' | 'l' => ResultCode::UnratedLoss,
            'H' | 'h' => ResultCode::HalfBye,
            'F' | 'f' => ResultCode::FullBye,
            'U' | 'u' => ResultCode::PairingBye,
            'Z' | 'z' => ResultCode::ZeroBye,
            _ => return None,
        })
    }

    /// The character written for this result.
    pub fn to_char(self) -> char {
        match self {
            ResultCode::Win => '1',
            ResultCode::Draw => '=',
            ResultCode::Loss => '0',
            ResultCode::ForfeitWin => '+',
            ResultCode::ForfeitLoss => '-',
            ResultCode::UnratedWin => 'W',
            ResultCode::UnratedDraw => 'D',
            ResultCode::UnratedLoss => 'L',
            ResultCode::HalfBye => 'H',
            ResultCode::FullBye => 'F',
            ResultCode::PairingBye => 'U',
            ResultCode::ZeroBye => 'Z',
        }
    }

    /// Points in half-points: a win (over the board, by forfeit, a full-point or
    /// pairing-allocated bye) 2, a draw or half-point bye 1, anything else 0.
    pub fn half_points(self) -> u32 {
        match self {
            ResultCode::Win
            | ResultCode::ForfeitWin
            | ResultCode::UnratedWin
            | ResultCode::FullBye
            | ResultCode::PairingBye => 2,
            ResultCode::Draw | ResultCode::UnratedDraw | ResultCode::HalfBye => 1,
            _ => 0,
        }
    }

    /// Whether a game was played over the board (the colour counts for the colour history).
    pub fn is_played(self) -> bool {
        matches!(
            self,
            ResultCode::Win
                | ResultCode::Draw
                | ResultCode::Loss
                | ResultCode::UnratedWin
                | ResultCode::UnratedDraw
                | ResultCode::UnratedLoss
        )
    }
}

/// One round of one player line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoundEntry {
    /// The opponent's start rank, or `None` (`0000`) for a bye or an absence.
    pub opponent: Option<u32>,
    /// The colour played, `None` when written `-` or blank.
    pub colour: Option<Colour>,
    /// The result.
    pub result: ResultCode,
}

/// A `001` player line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerLine {
    /// The start rank (pairing number), columns 5-8.
    pub start_rank: u32,
    /// Column 10 (`m`, `w` or blank), kept as written.
    pub sex: String,
    /// Columns 11-13, kept as written (trimmed).
    pub title: String,
    /// Columns 15-47 (trimmed).
    pub name: String,
    /// Columns 49-52; 0 when blank.
    pub rating: u32,
    /// Columns 54-56 (trimmed).
    pub federation: String,
    /// Columns 58-68 (trimmed).
    pub fide_id: String,
    /// Columns 70-79 (trimmed).
    pub birth_date: String,
    /// Columns 81-84 in tenths of a point (`3.5` is 35); `None` when blank.
    pub points_tenths: Option<u32>,
    /// Columns 86-89; `None` when blank.
    pub rank: Option<u32>,
    /// One entry a round from column 92; `None` for a round left blank.
    pub rounds: Vec<Option<RoundEntry>>,
}

/// One line of a TRF file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A `001` player line.
    Player(PlayerLine),
    /// `XXR n` (or `142 n`): the number of rounds of the tournament.
    Rounds(u32),
    /// `XXC white1|black1` (or `152 W|B`): the colour of the first-ranked player in round 1.
    InitialColour(Colour),
    /// Any other line, kept as written (without its line end).
    Other(String),
}

/// A whole TRF file.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Trf {
    /// The lines in file order (empty lines are dropped).
    pub lines: Vec<Line>,
}

/// A malformed TRF file: the line and column (both from 1) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct TrfError {
    /// The line, counted from 1.
    pub line: usize,
    /// The column, counted from 1 in characters.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

fn err(line: usize, column: usize, message: impl Into<String>) -> TrfError {
    TrfError {
        line,
        column,
        message: message.into(),
    }
}

/// Splits text into lines ending in CR, LF or CR LF.
fn split_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\r' => {
                lines.push(&text[start..i]);
                if i + 1 < bytes.len() && bytes[i + 1] == b'\n' {
                    i += 1;
                }
                start = i + 1;
            }
            b'\n' => {
                lines.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < bytes.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// The characters of columns `from..=to` (from 1), trimmed; empty past the end of the line.
fn field(chars: &[char], from: usize, to: usize) -> String {
    let lo = (from - 1).min(chars.len());
    let hi = to.min(chars.len());
    chars[lo..hi].iter().collect::<String>().trim().to_string()
}

fn number(
    chars: &[char],
    from: usize,
    to: usize,
    line: usize,
    what: &str,
) -> Result<Option<u32>, TrfError> {
    let text = field(chars, from, to);
    if text.is_empty() {
        return Ok(None);
    }
    let col = (from..=to.min(chars.len()))
        .find(|&c| !chars[c - 1].is_whitespace())
        .unwrap_or(from);
    text.parse::<u32>().map(Some).map_err(|_| {
        err(
            line,
            col,
            format!("{what} must be a whole number, found {text:?}"),
        )
    })
}

fn points(chars: &[char], line: usize) -> Result<Option<u32>, TrfError> {
    let text = field(chars, 81, 84);
    if text.is_empty() {
        return Ok(None);
    }
    let col = (81..=84.min(chars.len()))
        .find(|&c| !chars[c - 1].is_whitespace())
        .unwrap_or(81);
    let bad = || {
        err(
            line,
            col,
            format!("points (columns 81-84) must be like 3.5, found {text:?}"),
        )
    };
    let (whole, frac) = match text.split_once('.') {
        Some((w, f)) => (w, f),
        None => (text.as_str(), "0"),
    };
    if whole.is_empty() || frac.len() != 1 {
        return Err(bad());
    }
    let w: u32 = whole.parse().map_err(|_| bad())?;
    let f: u32 = frac.parse().map_err(|_| bad())?;
    w.checked_mul(10)
        .and_then(|t| t.checked_add(f))
        .map(Some)
        .ok_or_else(bad)
}

fn parse_player(chars: &[char], line: usize) -> Result<PlayerLine, TrfError> {
    if chars.len() < 8 {
        return Err(err(
            line,
            chars.len() + 1,
            "a 001 line needs a start rank in columns 5-8",
        ));
    }
    if chars[3] != ' ' {
        return Err(err(line, 4, "column 4 of a 001 line must be blank"));
    }
    let start_rank = number(chars, 5, 8, line, "the start rank (columns 5-8)")?
        .ok_or_else(|| err(line, 5, "the start rank (columns 5-8) is missing"))?;
    if start_rank == 0 {
        return Err(err(line, 5, "the start rank must be 1 or more"));
    }
    let rating = number(chars, 49, 52, line, "the rating (columns 49-52)")?.unwrap_or(0);
    let rank = number(chars, 86, 89, line, "the rank (columns 86-89)")?;
    let mut rounds = Vec::new();
    let mut col = 92;
    while col <= chars.len() {
        let block_end = (col + 7).min(chars.len());
        let block: String = chars[col - 1..block_end].iter().collect();
        if block.trim().is_empty() {
            rounds.push(None);
            col += 10;
            continue;
        }
        if col > 2 && (chars[col - 2] != ' ' || chars[col - 3] != ' ') {
            let c = if chars[col - 3] != ' ' {
                col - 2
            } else {
                col - 1
            };
            return Err(err(
                line,
                c,
                "the two columns before a round entry must be blank",
            ));
        }
        let opp_text = field(chars, col, col + 3);
        let opponent = if opp_text.is_empty() {
            return Err(err(
                line,
                col,
                "a round entry needs an opponent (4 columns, 0000 for none)",
            ));
        } else {
            match opp_text.parse::<u32>() {
                Ok(0) => None,
                Ok(n) => Some(n),
                Err(_) => {
                    return Err(err(
                        line,
                        col,
                        format!("the opponent must be a start rank or 0000, found {opp_text:?}"),
                    ));
                }
            }
        };
        let at = |c: usize| chars.get(c - 1).copied().unwrap_or(' ');
        if at(col + 4) != ' ' {
            return Err(err(
                line,
                col + 4,
                "a space must follow the opponent's number",
            ));
        }
        let colour = match at(col + 5) {
            'w' | 'W' => Some(Colour::White),
            'b' | 'B' => Some(Colour::Black),
            '-' | ' ' => None,
            c => {
                return Err(err(
                    line,
                    col + 5,
                    format!("the colour must be w, b or -, found {c:?}"),
                ));
            }
        };
        if at(col + 6) != ' ' {
            return Err(err(line, col + 6, "a space must follow the colour"));
        }
        let rc = at(col + 7);
        let result = ResultCode::from_char(rc).ok_or_else(|| {
            err(
                line,
                col + 7,
                format!("unknown result {rc:?} (1 = 0 + - W D L H F U Z)"),
            )
        })?;
        if opponent.is_some() && colour.is_none() && result.is_played() {
            return Err(err(line, col + 5, "a game played needs a colour, w or b"));
        }
        rounds.push(Some(RoundEntry {
            opponent,
            colour,
            result,
        }));
        col += 10;
    }
    while rounds.last() == Some(&None) {
        rounds.pop();
    }
    Ok(PlayerLine {
        start_rank,
        sex: field(chars, 10, 10),
        title: field(chars, 11, 13),
        name: field(chars, 15, 47),
        rating,
        federation: field(chars, 54, 56),
        fide_id: field(chars, 58, 68),
        birth_date: field(chars, 70, 79),
        points_tenths: points(chars, line)?,
        rank,
        rounds,
    })
}

impl Trf {
    /// Reads a TRF file; a malformed line is refused with its line and column.
    pub fn parse(text: &str) -> Result<Trf, TrfError> {
        let mut lines = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (i, raw) in split_lines(text).into_iter().enumerate() {
            let n = i + 1;
            let raw = raw.strip_prefix('\u{feff}').unwrap_or(raw);
            if raw.trim().is_empty() {
                continue;
            }
            let chars: Vec<char> = raw.chars().collect();
            let code: String = chars.iter().take(3).collect();
            let rest = || chars.iter().skip(3).collect::<String>();
            let line = match code.as_str() {
                "001" => {
                    let p = parse_player(&chars, n)?;
                    if !seen.insert(p.start_rank) {
                        return Err(err(
                            n,
                            5,
                            format!("start rank {} is used twice", p.start_rank),
                        ));
                    }
                    Line::Player(p)
                }
                "XXR" | "142" => {
                    let text = rest();
                    let t = text.trim();
                    let first = t.split_whitespace().next().unwrap_or("");
                    match first.parse::<u32>() {
                        Ok(r) if r > 0 => Line::Rounds(r),
                        _ => {
                            return Err(err(
                                n,
                                5,
                                format!("{code} needs the number of rounds, found {t:?}"),
                            ));
                        }
                    }
                }
                "XXC" | "152" => {
                    let text = rest();
                    let mut colour = None;
                    for tok in text.split_whitespace() {
                        match tok.to_ascii_lowercase().as_str() {
                            "white1" | "w" => colour = Some(Colour::White),
                            "black1" | "b" => colour = Some(Colour::Black),
                            _ => {}
                        }
                    }
                    match colour {
                        Some(c) => Line::InitialColour(c),
                        None if code == "XXC" => Line::Other(raw.to_string()),
                        None => {
                            return Err(err(n, 5, "152 needs the initial colour, W or B"));
                        }
                    }
                }
                _ => Line::Other(raw.to_string()),
            };
            lines.push(line);
        }
        let trf = Trf { lines };
        trf.check_opponents()?;
        Ok(trf)
    }

    /// Opponents named in round entries must be players of the file.
    fn check_opponents(&self) -> Result<(), TrfError> {
        let ranks: std::collections::HashSet<u32> = self.players().map(|p| p.start_rank).collect();
        for (i, line) in self.lines.iter().enumerate() {
            if let Line::Player(p) = line {
                for (r, e) in p.rounds.iter().enumerate() {
                    if let Some(RoundEntry {
                        opponent: Some(o), ..
                    }) = e
                        && (!ranks.contains(o) || *o == p.start_rank)
                    {
                        // The line number is the index among kept lines; good enough to find it.
                        return Err(err(
                            i + 1,
                            92 + 10 * r,
                            format!("round {}: opponent {o} is not another player", r + 1),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The player lines in file order.
    pub fn players(&self) -> impl Iterator<Item = &PlayerLine> {
        self.lines.iter().filter_map(|l| match l {
            Line::Player(p) => Some(p),
            _ => None,
        })
    }

    /// The player lines, mutable.
    pub fn players_mut(&mut self) -> impl Iterator<Item = &mut PlayerLine> {
        self.lines.iter_mut().filter_map(|l| match l {
            Line::Player(p) => Some(p),
            _ => None,
        })
    }

    /// The number of rounds (`XXR` or `142`), when given.
    pub fn total_rounds(&self) -> Option<u32> {
        self.lines.iter().find_map(|l| match l {
            Line::Rounds(r) => Some(*r),
            _ => None,
        })
    }

    /// The initial colour (`XXC white1|black1` or `152`), when given.
    pub fn initial_colour(&self) -> Option<Colour> {
        self.lines.iter().find_map(|l| match l {
            Line::InitialColour(c) => Some(*c),
            _ => None,
        })
    }

    /// Writes the file with lines ending in `line_end` (`"\r"` as pairing programs write,
    /// or `"\n"`).
    pub fn write(&self, line_end: &str) -> String {
        let mut out = String::new();
        for line in &self.lines {
            match line {
                Line::Player(p) => out.push_str(&write_player(p)),
                Line::Rounds(r) => out.push_str(&format!("XXR {r}")),
                Line::InitialColour(c) => out.push_str(match c {
                    Colour::White => "XXC white1",
                    Colour::Black => "XXC black1",
                }),
                Line::Other(s) => out.push_str(s),
            }
            out.push_str(line_end);
        }
        out
    }
}

impl fmt::Display for Trf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.write("\n"))
    }
}

fn fit(s: &str, width: usize) -> String {
    s.chars().take(width).collect()
}

/// Formats tenths of a point as TRF writes them (`3.5`, `10.0`).
pub fn format_points(tenths: u32) -> String {
    format!("{}.{}", tenths / 10, tenths % 10)
}

fn write_player(p: &PlayerLine) -> String {
    let mut s = format!(
        "001 {:>4} {:1}{:>3} {:<33} {:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
        p.start_rank,
        fit(&p.sex, 1),
        fit(&p.title, 3),
        fit(&p.name, 33),
        if p.rating == 0 {
            String::new()
        } else {
            p.rating.min(9999).to_string()
        },
        fit(&p.federation, 3),
        fit(&p.fide_id, 11),
        fit(&p.birth_date, 10),
        p.points_tenths
            .map(|t| fit(&format_points(t), 4))
            .unwrap_or_default(),
        p.rank.map(|r| r.min(9999).to_string()).unwrap_or_default(),
    );
    for e in &p.rounds {
        match e {
            None => s.push_str("          "),
            Some(e) => {
                let colour = match e.colour {
                    Some(Colour::White) => 'w',
                    Some(Colour::Black) => 'b',
                    None => '-',
                };
                let opponent = match e.opponent {
                    None => "0000".to_string(),
                    Some(n) => n.min(9999).to_string(),
                };
                s.push_str(&format!(
                    "  {:>4} {} {}",
                    opponent,
                    colour,
                    e.result.to_char()
                ));
            }
        }
    }
    s.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "012 Test\r001    1      Test0001 Player0001               2395                             1.0    1     2 b 1  0000 - H\r001    2      Test0002 Player0002               2392                             0.0    2     1 w 0  0000 - Z\rXXR 5\rXXC white1\r";

    #[test]
    fn reads_players_and_rounds() {
        let t = Trf::parse(SAMPLE).unwrap();
        let p: Vec<_> = t.players().collect();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].start_rank, 1);
        assert_eq!(p[0].name, "Test0001 Player0001");
        assert_eq!(p[0].rating, 2395);
        assert_eq!(p[0].points_tenths, Some(10));
        assert_eq!(
            p[0].rounds[0],
            Some(RoundEntry {
                opponent: Some(2),
                colour: Some(Colour::Black),
                result: ResultCode::Win
            })
        );
        assert_eq!(p[1].rounds[1].unwrap().result, ResultCode::ZeroBye);
        assert_eq!(t.total_rounds(), Some(5));
        assert_eq!(t.initial_colour(), Some(Colour::White));
    }

    #[test]
    fn line_ends_are_all_read() {
        let lf = SAMPLE.replace('\r', "\n");
        let crlf = SAMPLE.replace('\r', "\r\n");
        let a = Trf::parse(SAMPLE).unwrap();
        assert_eq!(Trf::parse(&lf).unwrap(), a);
        assert_eq!(Trf::parse(&crlf).unwrap(), a);
    }

    #[test]
    fn writes_what_it_reads() {
        let t = Trf::parse(SAMPLE).unwrap();
        let text = t.write("\r");
        assert_eq!(Trf::parse(&text).unwrap(), t);
        // Columns as the format has them.
        let line = text.split('\r').nth(1).unwrap();
        assert_eq!(&line[0..8], "001    1");
        assert_eq!(&line[80..84], " 1.0");
        assert_eq!(&line[91..99], "   2 b 1");
    }

    use proptest::prelude::*;

    fn entry() -> impl Strategy<Value = Option<RoundEntry>> {
        let result = prop::sample::select(vec![
            ResultCode::Win,
            ResultCode::Draw,
            ResultCode::Loss,
            ResultCode::ForfeitWin,
            ResultCode::ForfeitLoss,
            ResultCode::HalfBye,
            ResultCode::ZeroBye,
            ResultCode::PairingBye,
        ]);
        prop::option::weighted(
            0.9,
            (1u32..200, any::<bool>(), result).prop_map(|(o, white, result)| {
                let bye = matches!(
                    result,
                    ResultCode::HalfBye | ResultCode::ZeroBye | ResultCode::PairingBye
                );
                RoundEntry {
                    opponent: if bye { None } else { Some(o) },
                    colour: if bye {
                        None
                    } else if white {
                        Some(Colour::White)
                    } else {
                        Some(Colour::Black)
                    },
                    result,
                }
            }),
        )
    }

    proptest! {
        #[test]
        fn any_file_written_reads_back_the_same(
            players in prop::collection::vec(
                ("[A-Za-z][A-Za-z ,.]{0,30}[A-Za-z]", 0u32..3000, prop::option::of(0u32..200), prop::collection::vec(entry(), 0..12)),
                1..12,
            ),
            rounds in 1u32..20,
            white in any::<bool>(),
            cr in any::<bool>(),
        ) {
            let n = players.len() as u32;
            let mut lines = vec![Line::Other("012 Property".to_string())];
            for (i, (name, rating, points, rounds)) in players.into_iter().enumerate() {
                let rounds: Vec<Option<RoundEntry>> = rounds
                    .into_iter()
                    .map(|e| e.map(|mut e| {
                        // Opponents must be other players of the file.
                        if let Some(o) = e.opponent {
                            let o = (o % n) + 1;
                            e.opponent = if o == i as u32 + 1 { None } else { Some(o) };
                            if e.opponent.is_none() {
                                e.colour = None;
                                e.result = ResultCode::ZeroBye;
                            }
                        }
                        e
                    }))
                    .collect();
                let mut rounds = rounds;
                while rounds.last() == Some(&None) {
                    rounds.pop();
                }
                lines.push(Line::Player(PlayerLine {
                    start_rank: i as u32 + 1,
                    sex: String::new(),
                    title: String::new(),
                    name: name.trim().to_string(),
                    rating,
                    federation: String::new(),
                    fide_id: String::new(),
                    birth_date: String::new(),
                    points_tenths: points.map(|p| p * 5),
                    rank: Some(i as u32 + 1),
                    rounds,
                }));
            }
            lines.push(Line::Rounds(rounds));
            lines.push(Line::InitialColour(if white { Colour::White } else { Colour::Black }));
            let trf = Trf { lines };
            let text = trf.write(if cr { "\r" } else { "\n" });
            let back = Trf::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert_eq!(back, trf);
        }

        #[test]
        fn no_input_makes_the_reader_panic(text in "(001 [ -~]{0,120}\n|XX[RC] [ -~]{0,10}\n|[ -~]{0,40}\r){0,6}") {
            let _ = Trf::parse(&text);
        }
    }

    #[test]
    fn malformed_lines_name_line_and_column() {
        let bad = "012 x\n001    1      A                                 2000                             1.0    1     2 x 1\n";
        let e = Trf::parse(bad).unwrap_err();
        assert_eq!((e.line, e.column), (2, 97));
        assert!(e.to_string().contains("colour"), "{e}");
        let bad = "001   x1\n";
        let e = Trf::parse(bad).unwrap_err();
        assert_eq!((e.line, e.column), (1, 7));
        let bad = "001    1      A                                 2000                             1.0    1     2 w Q\n001    2\n";
        let e = Trf::parse(bad).unwrap_err();
        assert_eq!((e.line, e.column), (1, 99));
        let bad = "001    1      A                                 2000                             1,5    1\n";
        let e = Trf::parse(bad).unwrap_err();
        assert_eq!((e.line, e.column), (1, 82));
        let bad = "001    1\n001    1\n";
        assert_eq!(Trf::parse(bad).unwrap_err().line, 2);
        let bad = "001    1      A                                 2000                             1.0    1     7 w 1\n";
        assert!(Trf::parse(bad).unwrap_err().message.contains("opponent 7"));
        let bad = "XXR many\n";
        assert_eq!(Trf::parse(bad).unwrap_err().line, 1);
    }
}
