//! Exporters: one trait, one implementation per format (JSON here for any report; the
//! tables of a report beside it, as `bench` does).

/// Writes a report of type `R` in one format.
pub trait Exporter<R> {
    /// The report as text in this format.
    fn render(&self, report: &R) -> String;
}

/// Pretty-printed JSON of any serialisable report.
pub struct Json;

impl<R: serde::Serialize> Exporter<R> for Json {
    fn render(&self, report: &R) -> String {
        let mut s = serde_json::to_string_pretty(report).unwrap_or_default();
        s.push('\n');
        s
    }
}

/// Comma-separated values, one row per result.
pub struct Csv;

/// A Markdown table after a few header lines.
pub struct Markdown;

/// Plain text: header lines, then aligned columns.
pub struct Text;
