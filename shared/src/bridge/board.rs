//! Boards: who deals and who is vulnerable, from the board number.
//!
//! Duplicate bridge fixes both by the board's number so every table plays a board under the
//! same conditions: the dealer turns clockwise from North on board 1, and vulnerability runs
//! through a 16-board cycle that gives each side every combination against every dealer.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::seat::Seat;

/// Which sides are vulnerable (scoring higher rewards and penalties).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum Vulnerability {
    /// Neither side.
    None,
    /// North and South.
    NorthSouth,
    /// East and West.
    EastWest,
    /// Both sides.
    Both,
}

impl Vulnerability {
    /// True when `seat`'s side is vulnerable.
    #[must_use]
    pub fn is_vulnerable(self, seat: Seat) -> bool {
        let north_south = seat.0.is_multiple_of(2);
        match self {
            Vulnerability::None => false,
            Vulnerability::NorthSouth => north_south,
            Vulnerability::EastWest => !north_south,
            Vulnerability::Both => true,
        }
    }

    /// The PBN spelling: `None`, `NS`, `EW`, `All`.
    #[must_use]
    pub fn as_pbn(self) -> &'static str {
        match self {
            Vulnerability::None => "None",
            Vulnerability::NorthSouth => "NS",
            Vulnerability::EastWest => "EW",
            Vulnerability::Both => "All",
        }
    }
}

impl fmt::Display for Vulnerability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_pbn())
    }
}

/// Why text is not a vulnerability.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`{0}` is not a vulnerability: write None, NS, EW or All")]
pub struct VulnerabilityParseError(pub String);

impl FromStr for Vulnerability {
    type Err = VulnerabilityParseError;

    /// The PBN spellings and their synonyms (`Love`, `-`, `Both`), in either case.
    fn from_str(text: &str) -> Result<Vulnerability, VulnerabilityParseError> {
        match text.to_ascii_uppercase().as_str() {
            "NONE" | "LOVE" | "-" => Ok(Vulnerability::None),
            "NS" => Ok(Vulnerability::NorthSouth),
            "EW" => Ok(Vulnerability::EastWest),
            "ALL" | "BOTH" => Ok(Vulnerability::Both),
            _ => Err(VulnerabilityParseError(text.to_string())),
        }
    }
}

/// A board number, 1 and up; boards 17 on repeat the conditions of 1 to 16.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(transparent)]
pub struct Board(pub u32);

/// Vulnerability of boards 1 to 16, the cycle every duplicate set of boards uses.
const CYCLE: [Vulnerability; 16] = {
    use Vulnerability::{Both as B, EastWest as E, None as O, NorthSouth as N};
    [O, N, E, B, N, E, B, O, E, B, O, N, B, O, N, E]
};

impl Board {
    /// Where in the 16-board cycle this board is (0..16); board 0 is read as board 16.
    fn slot(self) -> usize {
        // Reduced first, so that no board number overflows (a PBN file may say anything).
        (self.0 % 16 + 15) as usize % 16
    }

    /// The dealer: North on board 1, then clockwise.
    #[must_use]
    pub fn dealer(self) -> Seat {
        Seat((self.slot() % 4) as u8)
    }

    /// Which sides are vulnerable on this board.
    #[must_use]
    pub fn vulnerability(self) -> Vulnerability {
        CYCLE[self.slot()]
    }

    /// True when `seat`'s side is vulnerable on this board.
    #[must_use]
    pub fn is_vulnerable(self, seat: Seat) -> bool {
        self.vulnerability().is_vulnerable(seat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::{EAST, NORTH, SOUTH, WEST};
    use Vulnerability::*;

    #[test]
    fn the_sixteen_board_cycle() {
        let expected = [
            (NORTH, None),
            (EAST, NorthSouth),
            (SOUTH, EastWest),
            (WEST, Both),
            (NORTH, NorthSouth),
            (EAST, EastWest),
            (SOUTH, Both),
            (WEST, None),
            (NORTH, EastWest),
            (EAST, Both),
            (SOUTH, None),
            (WEST, NorthSouth),
            (NORTH, Both),
            (EAST, None),
            (SOUTH, NorthSouth),
            (WEST, EastWest),
        ];
        for (i, &(dealer, vul)) in expected.iter().enumerate() {
            let board = Board(i as u32 + 1);
            assert_eq!(board.dealer(), dealer, "board {}", board.0);
            assert_eq!(board.vulnerability(), vul, "board {}", board.0);
            let again = Board(i as u32 + 17);
            assert_eq!(again.dealer(), dealer);
            assert_eq!(again.vulnerability(), vul);
        }
        // Over a cycle each side is vulnerable on eight boards.
        let ns = (1..=16).filter(|&b| Board(b).is_vulnerable(NORTH)).count();
        let ew = (1..=16).filter(|&b| Board(b).is_vulnerable(WEST)).count();
        assert_eq!((ns, ew), (8, 8));
    }

    #[test]
    fn vulnerability_by_seat_and_text() {
        assert!(NorthSouth.is_vulnerable(SOUTH));
        assert!(!NorthSouth.is_vulnerable(EAST));
        assert!(EastWest.is_vulnerable(WEST));
        assert!(Both.is_vulnerable(EAST) && !None.is_vulnerable(NORTH));
        for v in [None, NorthSouth, EastWest, Both] {
            assert_eq!(v.to_string().parse::<Vulnerability>().unwrap(), v);
        }
        assert_eq!("love".parse::<Vulnerability>().unwrap(), None);
        assert_eq!("Both".parse::<Vulnerability>().unwrap(), Both);
        assert!("NE".parse::<Vulnerability>().is_err());
    }
}
