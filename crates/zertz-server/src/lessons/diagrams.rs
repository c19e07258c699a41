//! The pictures of the rules page (`/rules`): each a real position drawn by the rules library's
//! `zertz::diagram::svg`, served as `image/svg+xml` at `/api/rules/diagrams/{name}.svg`, so the
//! page (and its printout) shows boards that the rules themselves produced.

use zertz::Position;
use zertz::diagram::svg::{self, SvgLabels, SvgOptions};

/// One picture of the rules page.
#[derive(Clone, Copy, Debug)]
pub struct Diagram {
    /// Its name in the address.
    pub name: &'static str,
    /// The position drawn.
    pub position: &'static str,
    /// Which coordinates it shows.
    pub labels: SvgLabels,
    /// Draw the free rings dashed.
    pub mark_free: bool,
    /// Rings to point at.
    pub marked: &'static [&'static str],
    /// What it shows (its title, for a screen reader).
    pub title: &'static str,
}

/// Every picture of the rules page.
pub const DIAGRAMS: &[Diagram] = &[
    Diagram {
        name: "start",
        position: "37 standard ..../...../....../......./....../...../.... 6/8/10 0/0/0 0/0/0 1",
        labels: SvgLabels::Every,
        mark_free: false,
        marked: &[],
        title: "The 37-ring board at the start, every ring with its coordinate",
    },
    Diagram {
        name: "free-rings",
        position: "37 standard --../...../....../...W.../....../..G../.... 5/7/10 0/0/0 0/0/0 1",
        labels: SvgLabels::Columns,
        mark_free: true,
        marked: &["b2"],
        title: "Free rings drawn dashed; b2 became free when a1 and a2 left",
    },
    Diagram {
        name: "capture",
        position: "37 standard B.../...../.B..../.B...../....../...../..G- 6/7/7 0/0/0 0/0/0 1",
        labels: SvgLabels::Columns,
        mark_free: false,
        marked: &["c2", "d2", "e1"],
        title: "A capture: the black marble on c2 jumps the one on d2 and lands on e1",
    },
    Diagram {
        name: "chain",
        position: "37 standard ...-/...../....../..BB.../....G./...B./-... 6/7/7 0/0/0 0/0/0 1",
        labels: SvgLabels::Columns,
        mark_free: false,
        marked: &["d3", "d5", "f5", "f3"],
        title: "A chain: from d3 over d4 to d5, over e5 to f5, over f4 to f3",
    },
    Diagram {
        name: "isolation",
        position: "37 standard W.-./---../....../......./...G../...../.... 5/7/10 0/0/0 0/0/0 1",
        labels: SvgLabels::Columns,
        mark_free: false,
        marked: &["a1", "a2"],
        title: "A cut-off group, a1 and a2: whoever fills a2 takes both",
    },
    Diagram {
        name: "last-ring",
        position: "37 standard ----/-----/--GB--/--W.W--/--BG--/-----/---- 1/1/1 1/2/3 1/1/1 1",
        labels: SvgLabels::Columns,
        mark_free: false,
        marked: &["d4"],
        title: "The last empty ring: filling d4 takes every marble on the board",
    },
    Diagram {
        name: "host",
        position: "37 standard -.../...../....G./...W.../....../...../...- 5/7/10 0/0/0 0/0/0 1",
        labels: SvgLabels::Host,
        mark_free: false,
        marked: &[],
        title: "The host's coordinates: rows lettered from the column g, rings counted from the left",
    },
];

/// The picture called `name` (with or without `.svg`), drawn.
pub fn render(name: &str) -> Option<Result<String, String>> {
    let name = name.strip_suffix(".svg").unwrap_or(name);
    let d = DIAGRAMS.iter().find(|d| d.name == name)?;
    Some(draw(d))
}

fn draw(d: &Diagram) -> Result<String, String> {
    let position: Position = d
        .position
        .parse()
        .map_err(|e| format!("diagram {}: {e}", d.name))?;
    let mut marked = 0;
    for coord in d.marked {
        let place = position
            .layout()
            .parse_place(coord)
            .map_err(|e| format!("diagram {}: {e}", d.name))?;
        marked |= place.bit();
    }
    let options = SvgOptions {
        labels: d.labels,
        mark_free: d.mark_free,
        marked,
        letters: true,
        title: Some(d.title.to_string()),
    };
    Ok(svg::render(&position, &options))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_diagram_draws() {
        for d in DIAGRAMS {
            let svg = render(d.name).expect("known").expect("drawn");
            assert!(svg.starts_with("<svg"), "{}", d.name);
            assert_eq!(
                svg.matches("class=\"marked\"").count(),
                d.marked.len(),
                "{}",
                d.name
            );
        }
        assert!(render("nothing").is_none());
        assert!(render("start.svg").is_some());
    }
}
