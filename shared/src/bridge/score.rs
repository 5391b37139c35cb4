//! Duplicate scoring of one board, as the laws of duplicate bridge set it.
//!
//! A score is computed from the declarer's side: positive when the contract makes, negative
//! when it goes down. Every board stands alone (no carried part-scores), so a made contract
//! always earns a part-score or game bonus on top of its trick score.

use super::auction::{Contract, Doubling};
use super::board::Vulnerability;
use super::call::{Bid, Strain};

/// The trick score of the tricks bid, doubled or redoubled: 100 or more is a game.
#[must_use]
pub fn trick_score(bid: Bid, doubled: Doubling) -> i32 {
    let level = i32::from(bid.level());
    let base = match bid.strain() {
        Strain::Clubs | Strain::Diamonds => 20 * level,
        Strain::Hearts | Strain::Spades => 30 * level,
        Strain::NoTrump => 40 + 30 * (level - 1),
    };
    base * multiplier(doubled)
}

/// 1, 2 or 4.
fn multiplier(doubled: Doubling) -> i32 {
    match doubled {
        Doubling::Undoubled => 1,
        Doubling::Doubled => 2,
        Doubling::Redoubled => 4,
    }
}

/// The score of a board for the declarer's side: `contract` is `None` for a passed-out
/// board (which scores 0), `tricks` is how many of the 13 tricks declarer's side took.
#[must_use]
pub fn duplicate_score(contract: Option<Contract>, vulnerable: bool, tricks: u8) -> i32 {
    let Some(contract) = contract else {
        return 0;
    };
    let needed = contract.bid.tricks_needed();
    if tricks >= needed {
        made(contract, vulnerable, tricks - needed)
    } else {
        -undertricks(contract.doubled, vulnerable, needed - tricks)
    }
}

/// The same score from North-South's point of view (what a traveller sheet records), with
/// vulnerability taken from the board.
#[must_use]
pub fn north_south_score(contract: Option<Contract>, vul: Vulnerability, tricks: u8) -> i32 {
    let Some(c) = contract else {
        return 0;
    };
    let score = duplicate_score(contract, vul.is_vulnerable(c.declarer), tricks);
    if c.declarer.0.is_multiple_of(2) {
        score
    } else {
        -score
    }
}

/// Everything a made contract earns.
fn made(contract: Contract, vulnerable: bool, over: u8) -> i32 {
    let Contract { bid, doubled, .. } = contract;
    let tricks = trick_score(bid, doubled);
    let level_bonus = if tricks >= 100 {
        if vulnerable { 500 } else { 300 }
    } else {
        50
    };
    let slam = match bid.level() {
        6 if vulnerable => 750,
        6 => 500,
        7 if vulnerable => 1500,
        7 => 1000,
        _ => 0,
    };
    let insult = match doubled {
        Doubling::Undoubled => 0,
        Doubling::Doubled => 50,
        Doubling::Redoubled => 100,
    };
    let per_overtrick = match doubled {
        Doubling::Undoubled if bid.strain().is_minor() => 20,
        Doubling::Undoubled => 30,
        Doubling::Doubled | Doubling::Redoubled => {
            let base = if vulnerable { 200 } else { 100 };
            base * multiplier(doubled) / 2
        }
    };
    tricks + level_bonus + slam + insult + per_overtrick * i32::from(over)
}

/// The penalty for `down` tricks short (a positive number).
#[must_use]
pub fn undertricks(doubled: Doubling, vulnerable: bool, down: u8) -> i32 {
    let down = i32::from(down);
    let doubled_penalty = if vulnerable {
        200 + 300 * (down - 1)
    } else {
        // 100 for the first, 200 each for the second and third, 300 each after.
        match down {
            1 => 100,
            2 => 300,
            3 => 500,
            _ => 500 + 300 * (down - 3),
        }
    };
    match doubled {
        Doubling::Undoubled => down * if vulnerable { 100 } else { 50 },
        Doubling::Doubled => doubled_penalty,
        Doubling::Redoubled => 2 * doubled_penalty,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::{EAST, NORTH};

    fn contract(text: &str) -> Contract {
        let (bid, doubled) = if let Some(b) = text.strip_suffix("XX") {
            (b, Doubling::Redoubled)
        } else if let Some(b) = text.strip_suffix('X') {
            (b, Doubling::Doubled)
        } else {
            (text, Doubling::Undoubled)
        };
        Contract {
            bid: bid.parse().unwrap(),
            doubled,
            declarer: NORTH,
        }
    }

    fn score(text: &str, vul: bool, tricks: u8) -> i32 {
        duplicate_score(Some(contract(text)), vul, tricks)
    }

    #[test]
    fn part_scores() {
        assert_eq!(score("1C", false, 7), 70);
        assert_eq!(score("2D", true, 8), 90);
        assert_eq!(score("1H", false, 7), 80);
        assert_eq!(score("2S", true, 8), 110);
        assert_eq!(score("1NT", false, 7), 90);
        assert_eq!(score("2NT", false, 8), 120);
        assert_eq!(score("3C", false, 9), 110);
        assert_eq!(score("4D", true, 10), 130);
        assert_eq!(score("3H", false, 9), 140);
        assert_eq!(score("3S", true, 10), 170, "one overtrick");
        assert_eq!(score("1NT", false, 9), 150, "two overtricks at 30");
        assert_eq!(score("2C", false, 11), 150, "three overtricks at 20");
    }

    #[test]
    fn games() {
        assert_eq!(score("3NT", false, 9), 400);
        assert_eq!(score("3NT", true, 9), 600);
        assert_eq!(score("3NT", false, 10), 430);
        assert_eq!(score("4H", false, 10), 420);
        assert_eq!(score("4S", true, 10), 620);
        assert_eq!(score("4S", true, 11), 650);
        assert_eq!(score("5C", false, 11), 400);
        assert_eq!(score("5D", true, 11), 600);
        assert_eq!(score("5D", true, 13), 640);
        assert_eq!(score("5NT", false, 11), 460);
        assert_eq!(score("4NT", true, 10), 630);
    }

    #[test]
    fn slams() {
        assert_eq!(score("6C", false, 12), 920);
        assert_eq!(score("6D", true, 12), 1370);
        assert_eq!(score("6H", false, 12), 980);
        assert_eq!(score("6S", true, 13), 1460);
        assert_eq!(score("6NT", false, 12), 990);
        assert_eq!(score("6NT", true, 12), 1440);
        assert_eq!(score("7C", false, 13), 1440);
        assert_eq!(score("7H", true, 13), 2210);
        assert_eq!(score("7S", false, 13), 1510);
        assert_eq!(score("7NT", false, 13), 1520);
        assert_eq!(score("7NT", true, 13), 2220);
    }

    #[test]
    fn doubled_and_redoubled_made() {
        // Doubling a part-score into game: 2S doubled is 120 below, a game.
        assert_eq!(score("2SX", false, 8), 470);
        assert_eq!(score("2SX", true, 8), 670);
        assert_eq!(
            score("1CX", false, 7),
            140,
            "40 + 50 part-score + 50 insult"
        );
        assert_eq!(score("1CX", false, 8), 240, "one overtrick at 100");
        assert_eq!(score("1CX", true, 8), 340, "one overtrick at 200");
        assert_eq!(score("1NTX", false, 7), 180);
        assert_eq!(score("1NTX", true, 7), 180);
        assert_eq!(score("1CXX", false, 7), 230, "80 + 50 + 100");
        assert_eq!(score("1CXX", false, 8), 430);
        assert_eq!(score("1CXX", true, 8), 630);
        assert_eq!(
            score("1NTXX", false, 7),
            560,
            "160 is game: 160 + 300 + 100"
        );
        assert_eq!(score("1NTXX", true, 7), 760);
        assert_eq!(score("3NTX", false, 9), 550);
        assert_eq!(score("3NTX", true, 10), 950);
        assert_eq!(score("4HX", false, 10), 590);
        assert_eq!(score("4HX", true, 10), 790);
        assert_eq!(score("4SXX", true, 10), 1080);
        assert_eq!(score("4SXX", false, 11), 1080);
        assert_eq!(score("5CX", false, 11), 550);
        assert_eq!(score("5DXX", true, 11), 1000);
        assert_eq!(score("6HX", false, 12), 1210);
        assert_eq!(score("6NTXX", true, 12), 2110);
        assert_eq!(score("7NTX", false, 13), 1790);
        assert_eq!(score("7NTXX", true, 13), 2980);
        assert_eq!(score("7CX", true, 13), 2330);
    }

    #[test]
    fn undoubled_undertricks() {
        assert_eq!(score("4S", false, 9), -50);
        assert_eq!(score("4S", true, 9), -100);
        assert_eq!(score("3NT", false, 6), -150);
        assert_eq!(score("3NT", true, 6), -300);
        assert_eq!(score("7NT", true, 0), -1300);
        assert_eq!(score("1C", false, 0), -350);
    }

    #[test]
    fn doubled_undertricks_follow_the_table() {
        let not_vul = [
            100, 300, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500,
        ];
        let vul = [
            200, 500, 800, 1100, 1400, 1700, 2000, 2300, 2600, 2900, 3200, 3500, 3800,
        ];
        for down in 1..=13u8 {
            let tricks = 13 - down;
            assert_eq!(score("7NTX", false, tricks), -not_vul[down as usize - 1]);
            assert_eq!(score("7NTX", true, tricks), -vul[down as usize - 1]);
            assert_eq!(
                score("7NTXX", false, tricks),
                -2 * not_vul[down as usize - 1]
            );
            assert_eq!(score("7NTXX", true, tricks), -2 * vul[down as usize - 1]);
        }
        assert_eq!(score("4HX", false, 7), -500);
        assert_eq!(score("2CXX", true, 6), -1000);
    }

    #[test]
    fn passed_out_scores_nothing_and_north_south_sees_the_sign() {
        assert_eq!(duplicate_score(None, true, 0), 0);
        assert_eq!(north_south_score(None, Vulnerability::Both, 7), 0);
        let mut c = contract("4H");
        c.declarer = EAST;
        assert_eq!(
            north_south_score(Some(c), Vulnerability::EastWest, 10),
            -620
        );
        assert_eq!(
            north_south_score(Some(c), Vulnerability::NorthSouth, 10),
            -420
        );
        assert_eq!(north_south_score(Some(c), Vulnerability::NorthSouth, 9), 50);
        c.declarer = NORTH;
        assert_eq!(
            north_south_score(Some(c), Vulnerability::NorthSouth, 10),
            620
        );
    }

    #[test]
    fn every_contract_and_result_is_a_multiple_of_ten_and_monotonic_in_tricks() {
        for bid in Bid::LOWEST.and_above() {
            for doubled in [Doubling::Undoubled, Doubling::Doubled, Doubling::Redoubled] {
                for vul in [false, true] {
                    let c = Contract {
                        bid,
                        doubled,
                        declarer: NORTH,
                    };
                    let scores: Vec<i32> =
                        (0..=13).map(|t| duplicate_score(Some(c), vul, t)).collect();
                    assert!(scores.iter().all(|s| s % 10 == 0));
                    assert!(scores.windows(2).all(|w| w[0] < w[1]), "{c} {scores:?}");
                    let needed = bid.tricks_needed() as usize;
                    assert!(scores[needed] > 0 && scores[needed - 1] < 0);
                }
            }
        }
    }
}
