//! SVG charts with plotters: `bench --plot` (time, speedup and efficiency against threads) and
//! `table --plot` (a(n) on a log scale).

use super::Target;
use nqueens::board::shown::Show;
use nqueens::Error;
use plotters::prelude::*;
use std::path::Path;

/// One measured thread count of a benchmark.
pub struct BenchPoint {
    /// Threads.
    pub threads: usize,
    /// Median, fastest and slowest time, in seconds.
    pub median: f64,
    /// Fastest run, in seconds.
    pub min: f64,
    /// Slowest run, in seconds.
    pub max: f64,
    /// Against the base thread count's median.
    pub speedup: f64,
    /// Speedup per thread, relative to the base.
    pub efficiency: f64,
}

/// A panel of the benchmark chart.
struct Panel {
    title: &'static str,
    /// What its y axis measures.
    y_desc: &'static str,
    /// The top of that axis.
    y_max: f64,
    /// The value drawn of each point.
    value: fn(&BenchPoint) -> f64,
}

fn failed(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::io_failed(format!("cannot draw the chart {}: {e}", path.shown()))
}

/// Where a chart goes, checked before any work: an `.svg` file (the only format drawn) that
/// can be written, as `count -o` checks its file.
pub fn chart_target(path: &Path) -> Result<Target, Error> {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("svg") => Target::file(path, "chart"),
        _ => Err(Error::Usage(format!(
            "--plot {} : charts are written as SVG; give a file name ending in .svg",
            path.shown()
        ))),
    }
}

/// Draws the benchmark's three panels into `path`, with `caption` (the workload and the
/// machine) above them and the report's `warnings` (a busy machine, more threads than CPUs)
/// under it in red: a chart shared alone still says why its scaling may look poor.
pub fn bench(
    target: &Target,
    caption: &[String],
    warnings: &[String],
    points: &[BenchPoint],
) -> anyhow::Result<()> {
    let mut svg = String::new();
    draw_bench(&mut svg, chart_name(target), caption, warnings, points)?;
    target.write(&svg)
}

/// The chart's name in a message.
fn chart_name(target: &Target) -> &Path {
    target.path().unwrap_or(Path::new("-"))
}

/// [`bench`]'s drawing, into `svg`.
fn draw_bench(
    svg: &mut String,
    path: &Path,
    caption: &[String],
    warnings: &[String],
    points: &[BenchPoint],
) -> Result<(), Error> {
    let err = |e: &dyn std::fmt::Display| failed(path, e);
    let warned: Vec<String> = warnings
        .iter()
        .flat_map(|w| wrap(&format!("warning: {w}"), BENCH_CAPTION_CHARS))
        .collect();
    let lines = (caption.len() + warned.len()) as u32;
    let size = (1200, 460 + 18 * warned.len() as u32);
    let root = SVGBackend::with_string(svg, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (top, body) = root.split_vertically(24 + 18 * lines);
    let red = RGBColor(190, 20, 20);
    for (i, line) in caption.iter().chain(&warned).enumerate() {
        let font = ("sans-serif", if i == 0 { 17 } else { 14 }).into_font();
        let style = if i < caption.len() {
            font.color(&BLACK)
        } else {
            font.color(&red)
        };
        top.draw(&Text::new(line.clone(), (12, 8 + 18 * i as i32), style))
            .map_err(|e| err(&e))?;
    }
    let panels = body.split_evenly((1, 3));
    let max_t = points.iter().map(|p| p.threads).max().unwrap_or(1) as f64;
    let x_range = 0.5..max_t + 0.5;
    let t_max = points.iter().map(|p| p.max).fold(0.0, f64::max) * 1.1;
    let s_max = points.iter().map(|p| p.speedup).fold(max_t, f64::max) * 1.1;
    let e_max = points.iter().map(|p| p.efficiency).fold(1.0, f64::max) * 110.0;
    let specs: [Panel; 3] = [
        Panel {
            title: "time (median, bars: min to max)",
            y_desc: "seconds",
            y_max: t_max,
            value: |p| p.median,
        },
        Panel {
            title: "speedup (dashed: ideal)",
            y_desc: "speedup",
            y_max: s_max,
            value: |p| p.speedup,
        },
        Panel {
            title: "parallel efficiency",
            y_desc: "percent",
            y_max: e_max,
            value: |p| 100.0 * p.efficiency,
        },
    ];
    for (i, (area, spec)) in panels.iter().zip(specs).enumerate() {
        draw_panel(area, i, spec, x_range.clone(), points).map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))
}

/// Draws `(n, a(n))` on a log scale into `path`; zeros (no solution) cannot be drawn on it and
/// are named in the caption instead.
pub fn sequence(target: &Target, title: &str, values: &[(u32, u128)]) -> anyhow::Result<()> {
    let mut svg = String::new();
    draw_sequence(&mut svg, chart_name(target), title, values)?;
    target.write(&svg)
}

/// [`sequence`]'s drawing, into `svg`.
fn draw_sequence(
    svg: &mut String,
    path: &Path,
    title: &str,
    values: &[(u32, u128)],
) -> Result<(), Error> {
    let err = |e: &dyn std::fmt::Display| failed(path, e);
    let shown: Vec<(u32, f64)> = values
        .iter()
        .filter(|(_, v)| *v > 0)
        .map(|&(n, v)| (n, v as f64))
        .collect();
    let caption = caption_lines(title, values);
    let (lo, hi) = match (values.first(), values.last()) {
        (Some(a), Some(b)) => (a.0, b.0),
        _ => return Err(failed(path, "no values to draw")),
    };
    let y_max = shown.iter().map(|p| p.1).fold(1.0, f64::max) * 3.0;
    let root = SVGBackend::with_string(svg, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (top, body) = root.split_vertically(16 + 20 * caption.len() as u32);
    for (i, line) in caption.iter().enumerate() {
        top.draw(&Text::new(
            line.clone(),
            (16, 10 + 20 * i as i32),
            ("sans-serif", 15).into_font(),
        ))
        .map_err(|e| err(&e))?;
    }
    let mut chart = ChartBuilder::on(&body)
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(lo as f64 - 0.5..hi as f64 + 0.5, (0.5..y_max).log_scale())
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("n")
        .y_desc("a(n)")
        .x_labels(((hi - lo + 1) as usize).clamp(2, 30))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| {
            if *y >= 1e5 {
                format!("{y:.0e}")
            } else {
                format!("{y:.0}")
            }
        })
        .draw()
        .map_err(|e| err(&e))?;
    let pts: Vec<(f64, f64)> = shown.iter().map(|&(n, v)| (n as f64, v)).collect();
    // Lines join consecutive n only: a gap (a zero) is not drawn over.
    for run in pts.chunk_by(|a, b| b.0 - a.0 == 1.0) {
        chart
            .draw_series(LineSeries::new(run.to_vec(), BLUE.stroke_width(2)))
            .map_err(|e| err(&e))?;
    }
    chart
        .draw_series(pts.iter().map(|&xy| Circle::new(xy, 4, BLUE.filled())))
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// Draws panel `i` of the benchmark chart (the first with min-max bars, the second with the
/// ideal speedup).
fn draw_panel(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    i: usize,
    panel: Panel,
    x_range: std::ops::Range<f64>,
    points: &[BenchPoint],
) -> Result<(), Box<dyn std::error::Error>> {
    let Panel {
        title,
        y_desc,
        y_max,
        value,
    } = panel;
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 15))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(x_range, 0.0..y_max.max(1e-9))?;
    chart
        .configure_mesh()
        .x_desc("threads")
        .y_desc(y_desc)
        .x_labels(points.len().clamp(2, 12))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()?;
    let series: Vec<(f64, f64)> = points
        .iter()
        .map(|p| (p.threads as f64, value(p)))
        .collect();
    chart.draw_series(LineSeries::new(series.clone(), BLUE.stroke_width(2)))?;
    chart.draw_series(series.iter().map(|&xy| Circle::new(xy, 4, BLUE.filled())))?;
    if i == 0 {
        chart.draw_series(points.iter().map(|p| {
            let x = p.threads as f64;
            PathElement::new(vec![(x, p.min), (x, p.max)], BLACK.stroke_width(1))
        }))?;
    }
    if i == 1 {
        let base = points[0].threads as f64;
        let ideal: Vec<(f64, f64)> = points
            .iter()
            .map(|p| (p.threads as f64, p.threads as f64 / base))
            .collect();
        chart.draw_series(DashedLineSeries::new(ideal, 6, 4, BLACK.stroke_width(1)))?;
    }
    Ok(())
}

/// The chart's caption: `title`, then which n have a(n) = 0 (not drawn on a log scale), in
/// lines that fit the picture's width.
fn caption_lines(title: &str, values: &[(u32, u128)]) -> Vec<String> {
    let zeros: Vec<String> = values
        .iter()
        .filter(|(_, v)| *v == 0)
        .map(|(n, _)| n.to_string())
        .collect();
    let mut caption = wrap(title, CAPTION_CHARS);
    if !zeros.is_empty() {
        caption.extend(wrap(
            &format!(
                "a(n) = 0 for n = {}: not drawn on a log scale",
                zeros.join(", ")
            ),
            CAPTION_CHARS,
        ));
    }
    caption
}

/// The most characters on a warning line of the 1200-pixel benchmark chart (14-pixel type,
/// about 7.5 pixels a character, a margin left and right).
const BENCH_CAPTION_CHARS: usize = 150;

/// The most characters on a caption line of the 900-pixel chart (15-pixel type, about 8
/// pixels a character, a margin left and right).
const CAPTION_CHARS: usize = 100;

/// `text` in lines of at most `max` characters, broken between words (a longer word alone).
fn wrap(text: &str, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= max => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    #[test]
    fn captions_wrap_between_words() {
        assert_eq!(super::wrap("a bb ccc dd", 6), ["a bb", "ccc dd"]);
        assert_eq!(super::wrap("abcdefgh x", 4), ["abcdefgh", "x"]);
        assert_eq!(super::wrap("short", 100), ["short"]);
    }
}
