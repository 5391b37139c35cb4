//! The median and the range of a few figures measured in alternating rounds: how `engine
//! --versus` and `versus-relay --rounds` report them. On a machine whose
//! speed drifts, the middle of several short comparisons says more than one long one.

/// The middle and the extremes of some figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    /// The median (the mean of the two middle figures for an even count).
    pub median: f64,
    /// The smallest.
    pub low: f64,
    /// The largest.
    pub high: f64,
}

impl Spread {
    /// The spread of `figures`; `None` when there are none.
    #[must_use]
    pub fn of(figures: &[f64]) -> Option<Spread> {
        let mut sorted = figures.to_vec();
        sorted.sort_by(f64::total_cmp);
        let (&low, &high) = (sorted.first()?, sorted.last()?);
        let mid = sorted.len() / 2;
        let median = if sorted.len() % 2 == 1 {
            sorted[mid]
        } else {
            (sorted[mid - 1] + sorted[mid]) / 2.0
        };
        Some(Spread { median, low, high })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_and_range_of_odd_and_even_counts() {
        assert_eq!(
            Spread::of(&[9.0, 1.0, 2.0]),
            Some(Spread {
                median: 2.0,
                low: 1.0,
                high: 9.0
            })
        );
        assert_eq!(Spread::of(&[4.0, 1.0, 9.0, 2.0]).unwrap().median, 3.0);
        assert_eq!(Spread::of(&[]), None);
    }
}
