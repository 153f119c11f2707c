//! Where a benchmark's report and chart go: stdout in the format asked for, an export file,
//! a chart; each checked before any run.

use super::args::BenchArgs;
use super::report;
use super::results::BenchReport;
use crate::cli::output::{self, plot, ReportFormat, Target};
use nqueens::board::shown::Show;
use nqueens::Error;

/// Where a benchmark's report and chart go, each checked before any run.
pub struct Outputs {
    /// The format of stdout.
    format: ReportFormat,
    /// `--export FILE` and the format written there.
    export: Option<ExportTo>,
    /// `--plot FILE.svg`.
    chart: Option<Target>,
}

/// `--export FILE`: where, and in which format.
#[derive(Debug)]
struct ExportTo {
    target: Target,
    format: ReportFormat,
}

impl Outputs {
    /// The outputs `a` asks for: the format flags for stdout, or, with `--export`, the text
    /// table on stdout and the file in the flag's format or its name's.
    pub fn of(a: &BenchArgs) -> anyhow::Result<Outputs> {
        let flag = if a.json {
            Some(ReportFormat::Json)
        } else if a.csv {
            Some(ReportFormat::Csv)
        } else if a.markdown {
            Some(ReportFormat::Markdown)
        } else {
            None
        };
        let export = match &a.export {
            Some(path) => {
                let format = flag
                    .or_else(|| ReportFormat::of_path(path))
                    .ok_or_else(|| {
                        Error::Usage(format!(
                            "--export {}: give the format (--json, --csv or --markdown) or a file \
                         name ending in .json, .csv, .md or .txt",
                            path.shown()
                        ))
                    })?;
                Some(ExportTo {
                    target: Target::file(path, "export")?,
                    format,
                })
            }
            None => None,
        };
        Ok(Outputs {
            format: if export.is_some() {
                ReportFormat::Text
            } else {
                flag.unwrap_or(ReportFormat::Text)
            },
            export,
            chart: a.plot.as_deref().map(plot::chart_target).transpose()?,
        })
    }

    /// Writes `report` to each output.
    pub fn write(&self, report: &BenchReport) -> anyhow::Result<()> {
        if let Some(chart) = &self.chart {
            let points: Vec<plot::BenchPoint> = report
                .results
                .iter()
                .map(|r| plot::BenchPoint {
                    threads: r.threads,
                    median: r.median_s,
                    min: r.min_s,
                    max: r.max_s,
                    // A chart is asked for with one thread among its counts (checked first).
                    speedup: r.speedup.unwrap_or(f64::NAN),
                    efficiency: r.efficiency.unwrap_or(f64::NAN),
                })
                .collect();
            let caption: Vec<String> = report::head(report).lines().map(str::to_string).collect();
            plot::bench(chart, &caption, &report.warnings, &points)?;
        }
        if let Some(ExportTo { target, format }) = &self.export {
            output::emit(report, *format, target)?;
        }
        output::print(report, self.format)
    }
}
