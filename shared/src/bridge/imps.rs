//! International Match Points: how a difference in score between two tables becomes a
//! match score. The scale grows slower than the points, so one huge swing cannot outweigh
//! many small gains.

/// The lowest difference that earns 1, 2, ... 24 IMPs.
const THRESHOLDS: [i32; 24] = [
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750,
    2000, 2250, 2500, 3000, 3500, 4000,
];

/// The IMPs for a score difference, with its sign: `imps(ours - theirs)`.
#[must_use]
pub fn imps(difference: i32) -> i32 {
    let size = difference.unsigned_abs().min(i32::MAX as u32) as i32;
    let imps = THRESHOLDS.iter().take_while(|&&t| size >= t).count() as i32;
    if difference < 0 { -imps } else { imps }
}

/// The IMPs North-South win on a board played at two tables, from the North-South scores
/// of each (our pair sat North-South at the first, the other pair at the second: a team's
/// result is the first table's score minus the second's).
#[must_use]
pub fn board_imps(north_south_here: i32, north_south_there: i32) -> i32 {
    imps(north_south_here - north_south_there)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_at_each_boundary() {
        let bands = [
            (0, 10, 0),
            (20, 40, 1),
            (50, 80, 2),
            (90, 120, 3),
            (130, 160, 4),
            (170, 210, 5),
            (220, 260, 6),
            (270, 310, 7),
            (320, 360, 8),
            (370, 420, 9),
            (430, 490, 10),
            (500, 590, 11),
            (600, 740, 12),
            (750, 890, 13),
            (900, 1090, 14),
            (1100, 1290, 15),
            (1300, 1490, 16),
            (1500, 1740, 17),
            (1750, 1990, 18),
            (2000, 2240, 19),
            (2250, 2490, 20),
            (2500, 2990, 21),
            (3000, 3490, 22),
            (3500, 3990, 23),
            (4000, 7600, 24),
        ];
        for (low, high, expected) in bands {
            for diff in (low..=high).step_by(10) {
                assert_eq!(imps(diff), expected, "{diff}");
                assert_eq!(imps(-diff), -expected, "-{diff}");
            }
        }
    }

    #[test]
    fn worked_swings() {
        // Game made at one table (620), part-score at the other (170): 450 is 10 IMPs.
        assert_eq!(board_imps(620, 170), 10);
        // Vulnerable game bid and made against the same game one down: 620 + 100 = 720.
        assert_eq!(board_imps(620, -100), 12);
        // An overtrick: 10 points, no IMP.
        assert_eq!(board_imps(430, 420), 0);
        assert_eq!(board_imps(-1430, 0), -16);
        assert_eq!(imps(i32::MIN), -24);
    }
}
