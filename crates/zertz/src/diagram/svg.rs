//! SVG diagrams of a position, for pages and print: the same board as the text diagram (rules.md
//! 2: vertical columns, `a` on the left, each ring at its height on the hexagonal grid), drawn
//! as rings and marbles that stay readable in black and white.
//!
//! Marbles are told apart without colour too: white is an open disc with a thick outline, grey
//! a mid-grey disc with a white cross-bar (or its letter), black a solid dark disc, and each can
//! carry its letter. Places whose ring is gone are small dots; free rings (with [`SvgOptions::mark_free`])
//! get a dashed outline; [`SvgOptions::marked`] rings a thick blue circle, for a diagram that
//! points at something. Only presentation attributes are used (no `style`), so the picture
//! needs nothing from the page that shows it.
//!
//! ```
//! use zertz::Position;
//! use zertz::diagram::svg::{SvgOptions, render};
//!
//! let svg = render(&Position::standard(), &SvgOptions::default());
//! assert!(svg.starts_with("<svg"));
//! assert_eq!(svg.matches("class=\"ring\"").count(), 37);
//! ```

use std::fmt::Write;

use crate::bits::Bits;
use crate::layout::Place;
use crate::marbles::Colour;
use crate::notation::host;
use crate::position::Position;

/// Distance between the centres of neighbouring rings, in SVG units.
const S: f64 = 40.0;
const RING: f64 = 0.44 * S;
const HOLE: f64 = 0.15 * S;
const MARBLE: f64 = 0.33 * S;
const MARGIN: f64 = 0.9 * S;

/// Which coordinates an SVG diagram writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SvgLabels {
    /// None.
    None,
    /// Column letters above and below the board (the default).
    #[default]
    Columns,
    /// Every ring's official coordinate under it, and the column letters.
    Every,
    /// Every ring's host coordinate (rules.md 7.1) under it.
    Host,
}

/// How to draw an SVG diagram.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SvgOptions {
    /// Which coordinates to write.
    pub labels: SvgLabels,
    /// Draw the free rings (the empty rings a placement could remove) with a dashed outline.
    pub mark_free: bool,
    /// Places to ring in blue (a set of place bits, as [`Position::rings`]).
    pub marked: u64,
    /// Write the marble's letter (W, G, B) on each marble.
    pub letters: bool,
    /// The picture's title (its text for a screen reader); the position in words when `None`.
    pub title: Option<String>,
}

/// Escapes text for SVG content and attribute values.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A short description of the position, the diagram's default title.
fn describe(position: &Position) -> String {
    let rings = position.rings().count_ones();
    let marbles = position.occupied().count_ones();
    format!(
        "{} board: {rings} ring{} left, {marbles} marble{} on it, {} to move",
        position.layout().kind().name(),
        if rings == 1 { "" } else { "s" },
        if marbles == 1 { "" } else { "s" },
        position.to_move()
    )
}

/// The whole picture as one `<svg>` element (with `viewBox`, `width` and `height`).
pub fn render(position: &Position, options: &SvgOptions) -> String {
    let layout = position.layout();
    let cells: Vec<(Place, f64, f64)> = layout
        .places()
        .map(|p| {
            let (x, y) = layout.cell(p);
            (p, f64::from(x), f64::from(y))
        })
        .collect();
    let max_y = cells.iter().map(|c| c.2).fold(f64::MIN, f64::max);
    let max_x = cells.iter().map(|c| c.1).fold(f64::MIN, f64::max);
    let dx = S * 3f64.sqrt() / 2.0;
    let dy = S / 2.0;
    let at = |x: f64, y: f64| (MARGIN + x * dx, MARGIN + (max_y - y) * dy);
    let width = 2.0 * MARGIN + max_x * dx;
    let height = 2.0 * MARGIN + max_y * dy;
    let free = if options.mark_free {
        position.free_rings()
    } else {
        0
    };
    let title = options.title.clone().unwrap_or_else(|| describe(position));

    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"zertz-diagram\" viewBox=\"0 0 {width:.1} {height:.1}\" \
         width=\"{width:.0}\" height=\"{height:.0}\" role=\"img\" font-family=\"sans-serif\">\
         <title>{}</title>",
        escape(&title)
    );
    for &(place, x, y) in &cells {
        let (cx, cy) = at(x, y);
        let coord = layout.coord(place).to_string();
        if !position.has_ring(place) {
            let _ = write!(
                s,
                "<circle class=\"gone\" data-coord=\"{coord}\" cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"2.5\" fill=\"#9a9a9a\"/>"
            );
            continue;
        }
        let dash = if free & place.bit() != 0 {
            " stroke-dasharray=\"5 3\""
        } else {
            ""
        };
        let _ = write!(
            s,
            "<circle class=\"ring\" data-coord=\"{coord}\" cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{RING:.1}\" \
             fill=\"#d9d4c7\" stroke=\"#3b3b3b\" stroke-width=\"2\"{dash}/>\
             <circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{HOLE:.1}\" fill=\"#ffffff\" stroke=\"#3b3b3b\"/>"
        );
        if let Some(colour) = position.colour_at(place) {
            marble(&mut s, colour, cx, cy, options.letters);
        }
        let label = match options.labels {
            SvgLabels::Every => Some(coord.clone()),
            SvgLabels::Host => host::coord_text(position, place),
            _ => None,
        };
        if let Some(label) = label {
            let _ = write!(
                s,
                "<text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"9\" fill=\"#1a1a1a\">{label}</text>",
                cy + RING + 9.0
            );
        }
    }
    for i in Bits(options.marked & layout.all()) {
        let place = layout.place_at_index(i as usize);
        if let Some(&(_, x, y)) = place.and_then(|p| cells.iter().find(|c| c.0 == p)) {
            let (cx, cy) = at(x, y);
            let _ = write!(
                s,
                "<circle class=\"marked\" cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\" fill=\"none\" stroke=\"#1d5fd0\" stroke-width=\"4\"/>",
                RING + 3.0
            );
        }
    }
    if matches!(options.labels, SvgLabels::Columns | SvgLabels::Every) {
        for column in 0..layout.columns() {
            let letter = (b'a' + column as u8) as char;
            let (cx, _) = at(column as f64, 0.0);
            for y in [MARGIN * 0.45, height - MARGIN * 0.25] {
                let _ = write!(
                    s,
                    "<text x=\"{cx:.1}\" y=\"{y:.1}\" text-anchor=\"middle\" font-size=\"13\" fill=\"#1a1a1a\">{letter}</text>"
                );
            }
        }
    }
    s.push_str("</svg>");
    s
}

/// One marble, drawn so that the three colours differ in print without colour.
fn marble(s: &mut String, colour: Colour, cx: f64, cy: f64, letter: bool) {
    let (fill, stroke, width, ink) = match colour {
        Colour::White => ("#ffffff", "#111111", 3.0, "#111111"),
        Colour::Grey => ("#8c8c8c", "#111111", 1.5, "#ffffff"),
        Colour::Black => ("#151515", "#000000", 1.5, "#ffffff"),
    };
    let _ = write!(
        s,
        "<circle class=\"marble marble-{}\" cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{MARBLE:.1}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{width}\"/>",
        colour.letter()
    );
    // The bar tells grey from black in print; a letter does that by itself.
    if colour == Colour::Grey && !letter {
        let _ = write!(
            s,
            "<line x1=\"{:.1}\" y1=\"{cy:.1}\" x2=\"{:.1}\" y2=\"{cy:.1}\" stroke=\"#ffffff\" stroke-width=\"2\"/>",
            cx - MARBLE * 0.7,
            cx + MARBLE * 0.7
        );
    }
    if letter {
        let _ = write!(
            s,
            "<text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"11\" font-weight=\"700\" fill=\"{ink}\">{}</text>",
            cy + 4.0,
            colour.letter()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_every_place_and_marble() {
        let p: Position =
            "37 standard -.../..W../....../...G.../....../...../...B 3/7/9 1/0/0 0/0/0 1"
                .parse()
                .unwrap();
        let svg = render(&p, &SvgOptions::default());
        assert_eq!(svg.matches("class=\"ring\"").count(), 36);
        assert_eq!(svg.matches("class=\"gone\"").count(), 1);
        assert_eq!(svg.matches("class=\"marble marble-W\"").count(), 1);
        assert_eq!(svg.matches("class=\"marble marble-G\"").count(), 1);
        assert_eq!(svg.matches("class=\"marble marble-B\"").count(), 1);
        assert!(svg.contains("data-coord=\"a1\""));
        assert!(!svg.contains("style="));
    }

    #[test]
    fn marks_free_rings_and_chosen_places() {
        let p = Position::standard();
        let d4 = p.layout().parse_place("d4").unwrap();
        let svg = render(
            &p,
            &SvgOptions {
                mark_free: true,
                marked: d4.bit(),
                labels: SvgLabels::Host,
                title: Some("a <title> & more".into()),
                ..SvgOptions::default()
            },
        );
        // On the full board the 18 rings of the rim are free.
        assert_eq!(svg.matches("stroke-dasharray").count(), 18);
        assert_eq!(svg.matches("class=\"marked\"").count(), 1);
        assert!(svg.contains(">A1</text>"));
        assert!(svg.contains("<title>a &lt;title&gt; &amp; more</title>"));
    }
}
