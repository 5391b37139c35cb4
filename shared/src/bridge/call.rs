//! The calls of a Bridge auction: strains, bids, pass, double and redouble.
//!
//! Text forms are the ones players write on a score card: `1C`, `3NT`, `P` (or `Pass`), `X`,
//! `XX`. On the wire a call is a small tagged object, so a client never parses bridge text:
//! `{"call":"pass"}`, `{"call":"double"}`, `{"call":"redouble"}` and
//! `{"call":"bid","level":3,"strain":"NT"}` (strains `C`, `D`, `H`, `S`, `NT`).

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::card::Suit;

/// What a bid names: a trump suit or no trump, ranked clubs < diamonds < hearts < spades <
/// no trump (a bid must beat the last in level, or in strain at the same level).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub enum Strain {
    /// Clubs are trumps.
    #[serde(rename = "C")]
    Clubs,
    /// Diamonds are trumps.
    #[serde(rename = "D")]
    Diamonds,
    /// Hearts are trumps.
    #[serde(rename = "H")]
    Hearts,
    /// Spades are trumps.
    #[serde(rename = "S")]
    Spades,
    /// No trump: the highest card of the suit led wins.
    #[serde(rename = "NT")]
    NoTrump,
}

impl Strain {
    /// The five strains, lowest first.
    pub const ALL: [Strain; 5] = [
        Strain::Clubs,
        Strain::Diamonds,
        Strain::Hearts,
        Strain::Spades,
        Strain::NoTrump,
    ];

    /// The trump suit, or `None` at no trump.
    #[must_use]
    pub fn trump(self) -> Option<Suit> {
        match self {
            Strain::Clubs => Some(Suit::Clubs),
            Strain::Diamonds => Some(Suit::Diamonds),
            Strain::Hearts => Some(Suit::Hearts),
            Strain::Spades => Some(Suit::Spades),
            Strain::NoTrump => None,
        }
    }

    /// The strain whose trump is `suit`.
    #[must_use]
    pub fn from_suit(suit: Suit) -> Strain {
        Strain::ALL[suit as usize]
    }

    /// True for clubs and diamonds, the suits worth 20 a trick.
    #[must_use]
    pub fn is_minor(self) -> bool {
        matches!(self, Strain::Clubs | Strain::Diamonds)
    }

    /// The text form: `C`, `D`, `H`, `S`, `NT`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        ["C", "D", "H", "S", "NT"][self as usize]
    }
}

impl fmt::Display for Strain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Strain {
    type Err = CallParseError;

    /// `C`, `D`, `H`, `S` (or a suit symbol), `N` or `NT`, in either case.
    fn from_str(text: &str) -> Result<Strain, CallParseError> {
        let upper = text.to_ascii_uppercase();
        if upper == "N" || upper == "NT" {
            return Ok(Strain::NoTrump);
        }
        let mut chars = text.chars();
        match (chars.next().and_then(Suit::from_char), chars.next()) {
            (Some(suit), None) => Ok(Strain::from_suit(suit)),
            _ => Err(CallParseError::NotAStrain(text.to_string())),
        }
    }
}

/// A bid: a level (1 to 7: tricks to take beyond the first six) and a strain. Bids are
/// ordered as in the auction: by level, then by strain.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(try_from = "RawBid")]
pub struct Bid {
    /// 1 to 7, checked when built or read.
    level: u8,
    /// The trump suit or no trump.
    strain: Strain,
}

/// A bid as read, before its level is checked.
#[derive(Deserialize, JsonSchema)]
struct RawBid {
    #[schemars(range(min = 1, max = 7))]
    level: u8,
    strain: Strain,
}

impl TryFrom<RawBid> for Bid {
    type Error = CallParseError;
    fn try_from(raw: RawBid) -> Result<Bid, CallParseError> {
        Bid::new(raw.level, raw.strain)
    }
}

impl Bid {
    /// The lowest bid there is, one club.
    pub const LOWEST: Bid = Bid {
        level: 1,
        strain: Strain::Clubs,
    };

    /// The bid of `level` (1..=7) in `strain`.
    pub fn new(level: u8, strain: Strain) -> Result<Bid, CallParseError> {
        if (1..=7).contains(&level) {
            Ok(Bid { level, strain })
        } else {
            Err(CallParseError::Level(level))
        }
    }

    /// 1 to 7.
    #[must_use]
    pub fn level(self) -> u8 {
        self.level
    }

    /// The strain named.
    #[must_use]
    pub fn strain(self) -> Strain {
        self.strain
    }

    /// Tricks declarer must take: six plus the level.
    #[must_use]
    pub fn tricks_needed(self) -> u8 {
        self.level + 6
    }

    /// The next higher bid, or `None` after seven no trump.
    #[must_use]
    pub fn next(self) -> Option<Bid> {
        match self.strain {
            Strain::NoTrump if self.level == 7 => None,
            Strain::NoTrump => Some(Bid {
                level: self.level + 1,
                strain: Strain::Clubs,
            }),
            s => Some(Bid {
                level: self.level,
                strain: Strain::ALL[s as usize + 1],
            }),
        }
    }

    /// Every bid from `self` up to seven no trump, in order.
    pub fn and_above(self) -> impl Iterator<Item = Bid> {
        std::iter::successors(Some(self), |b| b.next())
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.level, self.strain)
    }
}

impl FromStr for Bid {
    type Err = CallParseError;

    /// A digit 1-7 then a strain: `1C`, `3NT`, `3N`, `4♠`.
    fn from_str(text: &str) -> Result<Bid, CallParseError> {
        let mut chars = text.chars();
        let level = chars
            .next()
            .and_then(|c| c.to_digit(10))
            .ok_or_else(|| CallParseError::NotACall(text.to_string()))?;
        let strain = chars.as_str().parse()?;
        Bid::new(level as u8, strain)
    }
}

/// One call of the auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "call", rename_all = "snake_case")]
pub enum Call {
    /// No bid this turn.
    Pass,
    /// A bid, higher than any before it.
    Bid(Bid),
    /// Doubles the opponents' last bid: the penalties and rewards grow.
    Double,
    /// Redoubles the opponents' double of this side's bid.
    Redouble,
}

impl Call {
    /// The bid of `level` in `strain`, for tests and bots.
    ///
    /// # Panics
    /// If `level` is not 1 to 7.
    #[must_use]
    pub fn bid(level: u8, strain: Strain) -> Call {
        Call::Bid(Bid::new(level, strain).expect("a level from 1 to 7"))
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Call::Pass => f.write_str("P"),
            Call::Bid(bid) => bid.fmt(f),
            Call::Double => f.write_str("X"),
            Call::Redouble => f.write_str("XX"),
        }
    }
}

impl FromStr for Call {
    type Err = CallParseError;

    /// `P`/`Pass`, `X`/`Dbl`, `XX`/`Rdbl`, or a bid, in either case.
    fn from_str(text: &str) -> Result<Call, CallParseError> {
        match text.to_ascii_uppercase().as_str() {
            "P" | "PASS" => Ok(Call::Pass),
            "X" | "D" | "DBL" | "DOUBLE" => Ok(Call::Double),
            "XX" | "R" | "RDBL" | "REDOUBLE" => Ok(Call::Redouble),
            _ => text.parse().map(Call::Bid),
        }
    }
}

/// Why a piece of text is not a call.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CallParseError {
    /// A bid's level is outside 1 to 7.
    #[error("a bid's level is 1 to 7, not {0}")]
    Level(u8),
    /// The strain is not one of C, D, H, S, NT.
    #[error("`{0}` is not a strain: write C, D, H, S or NT")]
    NotAStrain(String),
    /// The text is not a call at all.
    #[error(
        "`{0}` is not a call: write P (pass), X (double), XX (redouble) or a bid like 1C or 3NT"
    )]
    NotACall(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bids_are_ordered_by_level_then_strain() {
        let all: Vec<Bid> = Bid::LOWEST.and_above().collect();
        assert_eq!(all.len(), 35);
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(all[4].to_string(), "1NT");
        assert_eq!(all[5].to_string(), "2C");
        assert_eq!(all[34].to_string(), "7NT");
        assert!("1NT".parse::<Bid>().unwrap() < "2C".parse().unwrap());
        assert!("2S".parse::<Bid>().unwrap() < "2NT".parse().unwrap());
    }

    #[test]
    fn text_forms_round_trip() {
        for text in ["P", "X", "XX", "1C", "3NT", "7S", "4H"] {
            assert_eq!(text.parse::<Call>().unwrap().to_string(), text);
        }
        assert_eq!("pass".parse::<Call>().unwrap(), Call::Pass);
        assert_eq!("Pass".parse::<Call>().unwrap(), Call::Pass);
        assert_eq!("3n".parse::<Call>().unwrap(), Call::bid(3, Strain::NoTrump));
        assert_eq!("4♠".parse::<Call>().unwrap(), Call::bid(4, Strain::Spades));
        assert_eq!("rdbl".parse::<Call>().unwrap(), Call::Redouble);
    }

    #[test]
    fn bad_text_is_refused_with_the_reason() {
        assert_eq!("8C".parse::<Call>(), Err(CallParseError::Level(8)));
        assert_eq!("0NT".parse::<Call>(), Err(CallParseError::Level(0)));
        assert!(matches!(
            "1Z".parse::<Call>(),
            Err(CallParseError::NotAStrain(_))
        ));
        assert!(matches!(
            "".parse::<Call>(),
            Err(CallParseError::NotACall(_))
        ));
        assert!(matches!(
            "hello".parse::<Call>(),
            Err(CallParseError::NotACall(_))
        ));
    }

    #[test]
    fn json_is_a_tagged_object() {
        let call = Call::bid(3, Strain::NoTrump);
        let json = serde_json::to_string(&call).unwrap();
        assert_eq!(json, r#"{"call":"bid","level":3,"strain":"NT"}"#);
        assert_eq!(serde_json::from_str::<Call>(&json).unwrap(), call);
        assert_eq!(
            serde_json::to_string(&Call::Pass).unwrap(),
            r#"{"call":"pass"}"#
        );
        assert_eq!(
            serde_json::to_string(&Call::Redouble).unwrap(),
            r#"{"call":"redouble"}"#
        );
        assert_eq!(
            serde_json::from_str::<Call>(r#"{"call":"double"}"#).unwrap(),
            Call::Double
        );
        let err = serde_json::from_str::<Call>(r#"{"call":"bid","level":8,"strain":"C"}"#);
        assert!(err.unwrap_err().to_string().contains("1 to 7"));
        assert!(serde_json::from_str::<Call>(r#"{"call":"bid","level":1,"strain":"Z"}"#).is_err());
    }

    #[test]
    fn the_schema_names_the_tag_and_the_level_range() {
        let schema = serde_json::to_string(&schemars::schema_for!(Call)).unwrap();
        assert!(schema.contains(r#""call""#), "{schema}");
        assert!(schema.contains(r#""NT""#), "{schema}");
        assert!(schema.contains(r#""maximum":7"#), "{schema}");
    }
}
