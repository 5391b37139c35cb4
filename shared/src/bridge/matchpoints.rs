//! Matchpoints: a board played at several tables, each result compared with every other.
//!
//! The convention here is the one with whole numbers: a score earns 2 for every score it
//! beats and 1 for every score it ties, so the top on a board played `n` times is
//! `2 * (n - 1)` and the two sides' matchpoints at a table add up to that top. (Halve them
//! for the other common convention of 1 per score beaten and ½ per tie.)

/// North-South matchpoints for each table's North-South score, in the same order.
#[must_use]
pub fn matchpoints(north_south_scores: &[i32]) -> Vec<u32> {
    north_south_scores
        .iter()
        .map(|&mine| {
            north_south_scores
                .iter()
                .map(|&other| match mine.cmp(&other) {
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                })
                .sum::<u32>()
                - 1 // the score compared with itself
        })
        .collect()
}

/// The top on a board played at `tables` tables.
#[must_use]
pub fn top(tables: usize) -> u32 {
    2 * tables.saturating_sub(1) as u32
}

/// East-West's matchpoints at each table: the top less North-South's.
#[must_use]
pub fn east_west(north_south: &[u32]) -> Vec<u32> {
    let top = top(north_south.len());
    north_south.iter().map(|&mp| top - mp).collect()
}

/// Matchpoints as a percentage of the top (50 when the board was played once).
#[must_use]
pub fn percentage(matchpoints: u32, tables: usize) -> f64 {
    match top(tables) {
        0 => 50.0,
        top => 100.0 * f64::from(matchpoints) / f64::from(top),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beats_ties_and_losses() {
        // Five tables: 4S made twice, an overtrick once, one down, and a part-score.
        let ns = [620, 620, 650, -100, 170];
        let mp = matchpoints(&ns);
        assert_eq!(mp, vec![5, 5, 8, 0, 2]);
        assert_eq!(east_west(&mp), vec![3, 3, 0, 8, 6]);
        assert_eq!(mp.iter().sum::<u32>(), top(5) * 5 / 2);
        assert_eq!(percentage(mp[2], 5), 100.0);
        assert_eq!(percentage(mp[0], 5), 62.5);
    }

    #[test]
    fn all_equal_is_an_average_and_one_table_is_fifty() {
        assert_eq!(matchpoints(&[100, 100, 100]), vec![2, 2, 2]);
        assert_eq!(matchpoints(&[-50]), vec![0]);
        assert_eq!(percentage(0, 1), 50.0);
        assert!(matchpoints(&[]).is_empty());
    }
}
