//! Boards as SVG pictures: one board ([`board`]) or a gallery of boards ([`gallery`]).
//!
//! Squares alternate light and dark, each queen is a crown on its square (an element of
//! class `queen`, with its 1-based square in `data-square`), and the columns and rows are
//! numbered on the edges (1-based, or 0-based). [`Marks`] add what a picture can say more: a
//! queen placed before the search drawn blue in a blue ring (`data-placed="true"`), as the web
//! pages draw it, and a red
//! line between two queens that attack each other (class `attack`; [`marked`] draws any set
//! of queens, as `verify` reads them). Boards up to [`SVG_MAX`] are drawn; larger ones would
//! not be legible and are refused by the callers.

use std::fmt::Write as _;

/// The largest board drawn as SVG: beyond, a square would be a few pixels wide.
pub const SVG_MAX: usize = 256;

/// The most boards in one gallery.
pub const GALLERY_MAX: usize = 400;

/// Pixels per square for an `n` board: 40 for small boards, shrinking so that the board stays
/// about 640 pixels wide, and never below 6.
fn square_size(n: usize) -> f64 {
    (640.0 / n as f64).clamp(6.0, 40.0)
}

/// Where one board's parts go: squares of `s` pixels, the board's top-left corner at
/// (`margin`, `top`), labels counted from `off`, in `font`-pixel type.
struct Drawing {
    n: usize,
    s: f64,
    margin: f64,
    top: f64,
    off: usize,
    font: f64,
}

/// What a picture marks beside its queens (0-based squares).
#[derive(Debug, Clone, Copy, Default)]
pub struct Marks<'a> {
    /// Queens placed before the search (`--place`): drawn blue, in a blue ring (the web pages'
    /// blue for a queen placed by hand).
    pub placed: &'a [(usize, usize)],
    /// Pairs of queens that attack each other: a red line between their squares' centres.
    pub attacks: &'a [[(usize, usize); 2]],
}

/// The queens of a one-queen-a-row board, `cols[r]` the column of row `r`'s queen.
fn by_row(cols: &[usize]) -> Vec<(usize, usize)> {
    cols.iter().copied().enumerate().collect()
}

/// The drawing of one `n` board at the origin with `queens` on it (none for an empty board;
/// a queen off the board is not drawn) and `marks`: its size in pixels and its SVG elements.
fn draw(
    n: usize,
    queens: &[(usize, usize)],
    zero_based: bool,
    title: Option<&str>,
    marks: Marks,
) -> (f64, f64, String) {
    let s = square_size(n);
    let margin = (s * 0.8).max(14.0);
    let l = Drawing {
        n,
        s,
        margin,
        top: margin + if title.is_some() { 18.0 } else { 0.0 },
        off: usize::from(!zero_based),
        font: (s * 0.45).clamp(7.0, 14.0),
    };
    let mut g = String::new();
    if let Some(t) = title {
        let _ = writeln!(
            g,
            r#"<text x="{:.1}" y="14" font-size="13" text-anchor="middle">{}</text>"#,
            margin + n as f64 * s / 2.0,
            escape(t)
        );
    }
    squares(&mut g, &l);
    coordinates(&mut g, &l);
    crowns(&mut g, &l, queens, marks.placed);
    attack_lines(&mut g, &l, marks.attacks);
    let width = 2.0 * margin + n as f64 * s;
    let height = l.top + margin + n as f64 * s;
    (width, height, g)
}

/// The squares: the dark ones drawn over one light background.
fn squares(g: &mut String, l: &Drawing) {
    let Drawing {
        n, s, margin, top, ..
    } = *l;
    let _ = writeln!(
        g,
        r##"<rect x="{margin:.1}" y="{top:.1}" width="{w:.1}" height="{w:.1}" fill="#f0d9b5" stroke="#333" stroke-width="1"/>"##,
        w = n as f64 * s
    );
    let mut dark = String::new();
    for r in 0..n {
        for c in 0..n {
            if (r + c) % 2 == 1 {
                let _ = write!(
                    dark,
                    "M{:.1} {:.1}h{s:.1}v{s:.1}h-{s:.1}z",
                    margin + c as f64 * s,
                    top + r as f64 * s
                );
            }
        }
    }
    if !dark.is_empty() {
        let _ = writeln!(g, r##"<path d="{dark}" fill="#b58863"/>"##);
    }
}

/// Coordinates: columns above and below, rows left and right; every one up to 32, else every
/// fifth (and the first and last).
fn coordinates(g: &mut String, l: &Drawing) {
    let Drawing {
        n,
        s,
        margin,
        top,
        off,
        font,
    } = *l;
    let step = if n <= 32 { 1 } else { 5 };
    let shown = |i: usize| i == 0 || i + 1 == n || (i + off).is_multiple_of(step);
    for i in (0..n).filter(|&i| shown(i)) {
        let mid = |base: f64| base + (i as f64 + 0.5) * s;
        let label = i + off;
        let _ = writeln!(
            g,
            r#"<text x="{:.1}" y="{:.1}" font-size="{font:.1}" text-anchor="middle">{label}</text><text x="{:.1}" y="{:.1}" font-size="{font:.1}" text-anchor="middle">{label}</text>"#,
            mid(margin),
            top - 4.0,
            mid(margin),
            top + n as f64 * s + font + 2.0,
        );
        let _ = writeln!(
            g,
            r#"<text x="{:.1}" y="{:.1}" font-size="{font:.1}" text-anchor="end" dominant-baseline="middle">{label}</text><text x="{:.1}" y="{:.1}" font-size="{font:.1}" text-anchor="start" dominant-baseline="middle">{label}</text>"#,
            margin - 3.0,
            mid(top),
            margin + n as f64 * s + 3.0,
            mid(top),
        );
    }
}

/// The colour of a queen placed by hand, in every picture and page: the Okabe-Ito blue, which
/// reads for the colour-blind.
pub const PLACED: &str = "#0072b2";

/// Queens: a crown (five points over a band) on each queen's square; a placed one blue, in a
/// blue ring.
fn crowns(g: &mut String, l: &Drawing, queens: &[(usize, usize)], placed: &[(usize, usize)]) {
    let Drawing {
        n,
        s,
        margin,
        top,
        off,
        ..
    } = *l;
    for &(r, c) in queens.iter().filter(|&&(r, c)| r < n && c < n) {
        let (x, y) = (margin + c as f64 * s, top + r as f64 * s);
        let p = |fx: f64, fy: f64| format!("{:.1} {:.1}", x + fx * s, y + fy * s);
        let is_placed = placed.contains(&(r, c));
        if is_placed {
            let _ = writeln!(
                g,
                r##"<circle class="placed" cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{PLACED}" stroke-width="{:.1}"/>"##,
                x + s / 2.0,
                y + s / 2.0,
                s * 0.46,
                (s * 0.06).max(1.0),
            );
        }
        let _ = writeln!(
            g,
            r##"<path class="queen" data-square="{}:{}"{} d="M{}L{}L{}L{}L{}L{}L{}L{}L{}Z" fill="{}" stroke="#fff" stroke-width="{:.1}"/>"##,
            r + off,
            c + off,
            if is_placed {
                r#" data-placed="true""#
            } else {
                ""
            },
            p(0.18, 0.78),
            p(0.12, 0.32),
            p(0.33, 0.55),
            p(0.5, 0.2),
            p(0.67, 0.55),
            p(0.88, 0.32),
            p(0.82, 0.78),
            p(0.5, 0.84),
            p(0.18, 0.78),
            if is_placed { PLACED } else { "#1a1a1a" },
            (s * 0.03).max(0.5),
        );
    }
}

/// A red line between the centres of each pair of queens that attack each other.
fn attack_lines(g: &mut String, l: &Drawing, attacks: &[[(usize, usize); 2]]) {
    let Drawing {
        n, s, margin, top, ..
    } = *l;
    let centre =
        |(r, c): (usize, usize)| (margin + (c as f64 + 0.5) * s, top + (r as f64 + 0.5) * s);
    let on = |&(r, c): &(usize, usize)| r < n && c < n;
    for [a, b] in attacks.iter().filter(|[a, b]| on(a) && on(b)) {
        let ((x1, y1), (x2, y2)) = (centre(*a), centre(*b));
        let _ = writeln!(
            g,
            r##"<line class="attack" x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#e53935" stroke-width="{:.1}" stroke-linecap="round" opacity="0.8"/>"##,
            (s * 0.08).max(1.5),
        );
    }
}

/// Text made safe inside XML or HTML markup: its `&`, `<` and `>` written as entities (what
/// the SVG pictures and the web pages put in their titles and captions).
pub fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn document(width: f64, height: f64, title: &str, body: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.1} {height:.1}\" font-family=\"sans-serif\">\n<title>{}</title>\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n{body}</svg>\n",
        escape(title)
    )
}

/// One board, `cols[r]` the 0-based column of row `r`'s queen, as an SVG document; the edges
/// are numbered from 1, or from 0 when `zero_based`.
pub fn board(cols: &[usize], zero_based: bool) -> String {
    let n = cols.len();
    marked(
        n,
        &by_row(cols),
        zero_based,
        &format!("{n} queens on the {n}×{n} board"),
        Marks::default(),
    )
}

/// Any `queens` on an `n` board (0-based `(row, col)`; those off the board are not drawn),
/// with `marks`, titled `title`, as one SVG document: a solution whose placed queens stand
/// out, or a board that is not a solution with its attacking pairs joined.
pub fn marked(
    n: usize,
    queens: &[(usize, usize)],
    zero_based: bool,
    title: &str,
    marks: Marks,
) -> String {
    let (w, h, body) = draw(n, queens, zero_based, None, marks);
    document(w, h, title, &body)
}

/// An empty `n` board titled `why`, as one SVG document: the picture of a board with no
/// solution (or none with the queens asked for).
pub fn empty(n: usize, zero_based: bool, why: &str) -> String {
    let (w, h, body) = draw(n, &[], zero_based, Some(why), Marks::default());
    // Room for the title (13-pixel type, about 7 pixels a character), the board centred.
    let wide = (why.chars().count() as f64 * 7.0 + 24.0).max(w);
    let body = format!(
        "<g transform=\"translate({:.1},0)\">\n{body}</g>\n",
        (wide - w) / 2.0
    );
    document(wide, h, why, &body)
}

/// Several boards of one size side by side, `per_row` to a row, each titled by its number
/// (from 1) in the sequence, the queens `placed` before the search marked on each, as one SVG
/// document.
pub fn gallery(
    boards: &[Vec<usize>],
    zero_based: bool,
    per_row: usize,
    placed: &[(usize, usize)],
) -> String {
    let marks = Marks {
        placed,
        attacks: &[],
    };
    let per_row = per_row.max(1);
    let mut body = String::new();
    let (mut cell_w, mut cell_h) = (0.0f64, 0.0f64);
    let drawn: Vec<(f64, f64, String)> = boards
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let title = format!("#{}", i + 1);
            draw(b.len(), &by_row(b), zero_based, Some(&title), marks)
        })
        .collect();
    for (w, h, _) in &drawn {
        cell_w = cell_w.max(*w);
        cell_h = cell_h.max(*h);
    }
    let gap = 12.0;
    for (i, (_, _, g)) in drawn.iter().enumerate() {
        let (x, y) = (
            (i % per_row) as f64 * (cell_w + gap),
            (i / per_row) as f64 * (cell_h + gap),
        );
        let _ = writeln!(body, "<g transform=\"translate({x:.1} {y:.1})\">\n{g}</g>");
    }
    let cols = boards.len().clamp(1, per_row);
    let rows = boards.len().div_ceil(per_row).max(1);
    let n = boards.first().map_or(0, |b| b.len());
    document(
        cols as f64 * (cell_w + gap) - gap,
        rows as f64 * (cell_h + gap) - gap,
        &format!("{} solutions of the {n}×{n} board", boards.len()),
        &body,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queens_and_labels_are_drawn() {
        let s = board(&[1, 3, 0, 2], false);
        assert!(s.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(s.matches("class=\"queen\"").count(), 4);
        assert!(s.contains("data-square=\"1:2\""));
        let z = board(&[1, 3, 0, 2], true);
        assert!(z.contains("data-square=\"0:1\""));
        let g = gallery(&[vec![1, 3, 0, 2], vec![2, 0, 3, 1]], false, 2, &[(0, 1)]);
        assert_eq!(g.matches("class=\"queen\"").count(), 8);
        assert!(g.contains(">#2</text>"));
        // Placed (0, 1) is a queen of the first board only.
        assert_eq!(g.matches("data-placed").count(), 1);
        let m = marked(
            4,
            &[(0, 0), (1, 1), (9, 9)],
            false,
            "two attack",
            Marks {
                placed: &[],
                attacks: &[[(0, 0), (1, 1)], [(1, 1), (9, 9)]],
            },
        );
        assert_eq!(m.matches("class=\"queen\"").count(), 2);
        assert_eq!(m.matches("class=\"attack\"").count(), 1);
    }
}
