//! The one output path of every command: a command builds a report that implements
//! [`Report`], and [`emit`] renders it in the format asked for ([`ReportFormat`]) and writes it to
//! its [`Target`] (stdout, or a file checked before the work starts). No command writes its
//! result any other way. Streams (`list`, `trace`) write line by line through [`stdout`],
//! which says how a stream ended. The charts of `bench --plot` and `table --plot` are in
//! [`plot`]; the words reports share are in [`text`].

pub mod plot;
pub mod stdout;
pub mod target;
pub mod text;

pub use self::target::Target;
use nqueens::Error;

/// What a command reports, in each format it offers. Text and JSON always; Markdown and CSV
/// where a command has a table to give.
pub trait Report {
    /// The report as a person reads it.
    fn text(&self) -> String;

    /// The report as one JSON document on one line ([`json_line`]: one style for every
    /// command).
    fn json(&self) -> serde_json::Result<String>;

    /// The report as Markdown, where the command offers it.
    fn markdown(&self) -> Option<String> {
        None
    }

    /// The report as comma-separated values, where the command offers it.
    fn csv(&self) -> Option<String> {
        None
    }
}

/// The formats a report is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    Text,
    Json,
    Markdown,
    Csv,
}

impl ReportFormat {
    /// JSON where `json` is asked for, else text.
    pub fn json_if(json: bool) -> ReportFormat {
        if json {
            ReportFormat::Json
        } else {
            ReportFormat::Text
        }
    }

    /// The format a file's name asks for: `.json`, `.csv`, `.md` (any case); `None` for any
    /// other name.
    pub fn of_path(path: &std::path::Path) -> Option<ReportFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "json" => Some(ReportFormat::Json),
            "csv" => Some(ReportFormat::Csv),
            "md" | "markdown" => Some(ReportFormat::Markdown),
            "txt" => Some(ReportFormat::Text),
            _ => None,
        }
    }
}

/// A value as the one JSON style of every command: compact, on one line, ending with a newline.
pub fn json_line<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut s = serde_json::to_string(value)?;
    s.push('\n');
    Ok(s)
}

/// `report` in `format`. A format the report does not offer is a usage error naming it.
pub fn render(report: &dyn Report, format: ReportFormat) -> anyhow::Result<String> {
    let offered = match format {
        ReportFormat::Text => Some(report.text()),
        ReportFormat::Json => Some(report.json()?),
        ReportFormat::Markdown => report.markdown(),
        ReportFormat::Csv => report.csv(),
    };
    offered.ok_or_else(|| {
        Error::Usage(format!("this command has no {format:?} output").to_lowercase()).into()
    })
}

/// Writes `report` in `format` to `target`: the one place a command's result is written.
pub fn emit(report: &dyn Report, format: ReportFormat, target: &Target) -> anyhow::Result<()> {
    let text = render(report, format)?;
    target.write(&text)
}

/// Writes `report` in `format` to stdout.
pub fn print(report: &dyn Report, format: ReportFormat) -> anyhow::Result<()> {
    emit(report, format, &Target::Stdout)
}

/// Writes a result already rendered in a form of its own (a board in a text format, an SVG
/// picture, a man page, a completion script) to stdout.
pub fn print_rendered(text: &str) -> anyhow::Result<()> {
    Target::Stdout.write(text)
}

/// Where a command writes a whole document (`what`: a page, a picture, a board): the file
/// `output` names (`-o`), checked before any work, or stdout. A web page (`page`) is refused on
/// a terminal, where it would be a screen of markup, with the `-o` to give instead.
pub fn document(output: Option<&std::path::Path>, what: &str, page: bool) -> Result<Target, Error> {
    match output {
        Some(path) => Target::file(path, what),
        None if page && stdout::is_terminal() => Err(Error::Usage(
            "--format html writes a web page, not text for a terminal: give -o FILE.html (or \
             redirect standard output to a file)"
                .into(),
        )),
        None => Ok(Target::Stdout),
    }
}

/// Writes a value as a command's JSON result ([`json_line`]) to stdout.
pub fn print_json<T: serde::Serialize + ?Sized>(value: &T) -> anyhow::Result<()> {
    Target::Stdout.write(&json_line(value)?)
}
