//! Projections from a sample: a mean or a ratio of means scaled to the whole, with its 95%
//! Student interval ([`Projected`]).

use serde::Serialize;

/// A projection with its 95% interval (`None` with fewer than two samples).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Projected {
    /// The central value.
    pub value: f64,
    /// The interval's low end.
    pub low: Option<f64>,
    /// The interval's high end.
    pub high: Option<f64>,
}

/// Student's t for a two-sided 95% interval with `df` degrees of freedom.
pub fn student_95(df: usize) -> f64 {
    const T: [f64; 10] = [12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23];
    match df {
        0 => f64::INFINITY,
        1..=10 => T[df - 1],
        11..=20 => 2.09 + (20 - df) as f64 * 0.014,
        21..=30 => 2.04 + (30 - df) as f64 * 0.005,
        31..=60 => 2.0 + (60 - df) as f64 * 0.0013,
        _ => 1.96,
    }
}

/// `scale` times the ratio of the means of `num` and `den` (draws weighted alike), with its
/// 95% interval by the ratio's linearised variance; none when `den` sums to 0. The interval
/// needs two draws with a share of `den` (tasks that found solutions): a draw without adds no
/// information on the ratio's spread, only on the numerator (with one such draw in two, the
/// linearised variance is near zero and would give an interval of a few hundredths of a
/// percent where the sample supports none). Its degrees of freedom are the draws with a
/// share, less one.
pub fn project_ratio(scale: f64, num: &[f64], den: &[f64]) -> Option<Projected> {
    let m = num.len() as f64;
    let (mn, md) = (num.iter().sum::<f64>() / m, den.iter().sum::<f64>() / m);
    if md <= 0.0 {
        return None;
    }
    let r = mn / md;
    let with_share = den.iter().filter(|&&d| d > 0.0).count();
    if with_share < 2 {
        return Some(Projected {
            value: scale * r,
            low: None,
            high: None,
        });
    }
    let var = num
        .iter()
        .zip(den)
        .map(|(a, b)| (a - r * b).powi(2))
        .sum::<f64>()
        / (m - 1.0);
    let half = student_95(with_share - 1) * (var / m).sqrt() / md;
    Some(Projected {
        value: scale * r,
        low: Some((scale * (r - half)).max(0.0)),
        high: Some(scale * (r + half)),
    })
}

/// `total` times the mean of `ratios`, with the mean's 95% interval.
pub fn project(total: f64, ratios: &[f64]) -> Projected {
    let m = ratios.len() as f64;
    let mean = ratios.iter().sum::<f64>() / m;
    if ratios.len() < 2 {
        return Projected {
            value: total * mean,
            low: None,
            high: None,
        };
    }
    let var = ratios.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (m - 1.0);
    let half = student_95(ratios.len() - 1) * (var / m).sqrt();
    Projected {
        value: total * mean,
        low: Some((total * (mean - half)).max(0.0)),
        high: Some(total * (mean + half)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn projections_scale_the_mean_ratio_with_an_interval() {
        let p = project(100.0, &[1.0, 1.0, 1.0]);
        assert_eq!((p.value, p.low, p.high), (100.0, Some(100.0), Some(100.0)));
        let p = project(100.0, &[0.5, 1.5]);
        assert_eq!(p.value, 100.0);
        assert!(p.low == Some(0.0) && p.high.unwrap() > 600.0, "{p:?}");
        let p = project_ratio(10.0, &[2.0, 4.0], &[1.0, 2.0]).unwrap();
        assert_eq!((p.value, p.low, p.high), (20.0, Some(20.0), Some(20.0)));
        assert!(project_ratio(10.0, &[2.0], &[0.0]).is_none());
        // One draw of two found what the ratio divides by: no interval, whatever the other.
        let p = project_ratio(10.0, &[0.001, 4.0], &[0.0, 2.0]).unwrap();
        assert_eq!((p.low, p.high), (None, None), "{p:?}");
        let p = project(10.0, &[2.0]);
        assert_eq!((p.value, p.low), (20.0, None));
        assert!(student_95(100) < student_95(10) && student_95(10) < student_95(1));
    }
}
