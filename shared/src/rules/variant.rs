//! The five variants and their named options, with defaults and validation.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Which game is played at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Microsoft Hearts: 4 players, passing, 2♣ leads, moon shooting, to 100.
    Hearts,
    /// Filippa: penalties are negative, clean players share a prize pool.
    Filippa,
    /// UVa 181: 5 players, 10 cards, trump from the two undealt cards, hearts at face value.
    Hearts5,
    /// Plain tricks: one point per trick, to 1000, a bad card costs 100.
    Tricks,
    /// Whist: partnerships, the dealer's last card sets trump, tricks over six score, to 5.
    Whist,
}

impl Variant {
    /// Every variant, in the order the lobby lists them.
    pub const ALL: [Variant; 5] = [
        Variant::Hearts,
        Variant::Filippa,
        Variant::Hearts5,
        Variant::Tricks,
        Variant::Whist,
    ];

    /// The name used on the wire and the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Variant::Hearts => "hearts",
            Variant::Filippa => "filippa",
            Variant::Hearts5 => "hearts5",
            Variant::Tricks => "tricks",
            Variant::Whist => "whist",
        }
    }

    /// One line for people choosing a game.
    #[must_use]
    pub fn description(self) -> &'static str {
        match self {
            Variant::Hearts => {
                "Classic Hearts: pass three cards, avoid hearts and the queen of spades, or take them all."
            }
            Variant::Filippa => {
                "Hearts with a prize: players who take no penalty card share the pool of points."
            }
            Variant::Hearts5 => {
                "Five-player Hearts with trumps: the two undealt cards pick the trump suit."
            }
            Variant::Tricks => {
                "Plain tricks: every trick you win is a point, first to the target wins."
            }
            Variant::Whist => {
                "Partners across the table; the dealer's last card sets trump; tricks over six score."
            }
        }
    }

    /// How many seats the table has.
    #[must_use]
    pub fn players(self) -> u8 {
        if self == Variant::Hearts5 { 5 } else { 4 }
    }

    /// How many cards each player is dealt.
    #[must_use]
    pub fn hand_size(self) -> u32 {
        if self == Variant::Hearts5 { 10 } else { 13 }
    }

    /// The most cards a hand holds in any variant, and so the most tricks of a hand: Oh Hell
    /// at three seats deals 17 each (51 cards, one left to turn up for trump).
    pub const MAX_HAND_SIZE: usize = 17;

    /// True when the lowest total wins (the Hearts family scores penalties).
    #[must_use]
    pub fn low_score_wins(self) -> bool {
        matches!(self, Variant::Hearts | Variant::Hearts5)
    }

    /// The options this variant takes, with their types and defaults.
    #[must_use]
    pub fn option_specs(self) -> Vec<OptionSpec> {
        let target = |default: i64, what: &'static str| OptionSpec {
            name: "target",
            kind: OptionKind::Integer {
                min: 1,
                max: 100_000,
            },
            default: default.into(),
            description: what,
        };
        match self {
            Variant::Hearts => vec![
                target(
                    100,
                    "The match ends when a player reaches this many points.",
                ),
                OptionSpec {
                    name: "passing",
                    kind: OptionKind::Boolean,
                    default: true.into(),
                    description: "Pass three cards before each hand (left, right, across, none).",
                },
                OptionSpec {
                    name: "moon",
                    kind: OptionKind::Choice {
                        values: vec!["add", "subtract"],
                    },
                    default: "add".into(),
                    description: "Shooting the moon adds 26 to the others, or subtracts 26 from the shooter.",
                },
            ],
            Variant::Filippa => {
                vec![target(
                    100,
                    "The match ends when a player's positive total reaches this.",
                )]
            }
            Variant::Hearts5 => vec![OptionSpec {
                name: "hands",
                kind: OptionKind::Integer { min: 1, max: 100 },
                default: 5.into(),
                description: "How many hands the match lasts (5: everyone deals once).",
            }],
            Variant::Tricks => vec![
                target(
                    1000,
                    "The match ends as soon as a player has this many points.",
                ),
                OptionSpec {
                    name: "bad_card",
                    kind: OptionKind::Choice {
                        values: vec!["penalty", "reject"],
                    },
                    default: "penalty".into(),
                    description: "An illegal card costs 100 points and a redeal, or is refused and asked again.",
                },
            ],
            Variant::Whist => vec![target(
                5,
                "The first partnership to reach this many points wins.",
            )],
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = OptionsError;
    fn from_str(s: &str) -> Result<Variant, OptionsError> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| OptionsError::UnknownVariant(s.to_string()))
    }
}

/// What scoring the moon does in Hearts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Moon {
    /// Every other player takes 26 (Microsoft Hearts).
    #[default]
    Add,
    /// The shooter's total drops by 26.
    Subtract,
}

/// What an illegal card does in `tricks`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BadCard {
    /// The seed's rule: minus 100 points and the hand is redealt.
    #[default]
    Penalty,
    /// Refused with an error, as every other variant does.
    Reject,
}

/// The options a table was created with. Each is optional; absent ones take the variant's
/// default, and one that the variant does not have is an error.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Points that end the match (hearts, filippa, tricks, whist).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<i32>,
    /// Pass cards before each hand (hearts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passing: Option<bool>,
    /// How shooting the moon scores (hearts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moon: Option<Moon>,
    /// Hands in a match (hearts5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hands: Option<u32>,
    /// What an illegal card does (tricks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bad_card: Option<BadCard>,
}

/// The resolved rules of one table: a variant and every option's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The variant.
    pub variant: Variant,
    /// Points that end the match (unused by hearts5).
    pub target: i32,
    /// Whether Hearts passes cards.
    pub passing: bool,
    /// How Hearts scores the moon.
    pub moon: Moon,
    /// Hands in a hearts5 match.
    pub hands: u32,
    /// What an illegal card does in `tricks`.
    pub bad_card: BadCard,
}

impl Rules {
    /// Resolves `options` for `variant`, refusing options the variant does not have.
    pub fn new(variant: Variant, options: &Options) -> Result<Rules, OptionsError> {
        let specs = variant.option_specs();
        let has = |name: &str| specs.iter().any(|s| s.name == name);
        let given = [
            ("target", options.target.is_some()),
            ("passing", options.passing.is_some()),
            ("moon", options.moon.is_some()),
            ("hands", options.hands.is_some()),
            ("bad_card", options.bad_card.is_some()),
        ];
        if let Some((name, _)) = given.iter().find(|(name, set)| *set && !has(name)) {
            return Err(OptionsError::NotForVariant {
                option: name,
                variant,
            });
        }
        let target = options.target.unwrap_or(match variant {
            Variant::Tricks => 1000,
            Variant::Whist => 5,
            _ => 100,
        });
        if !(1..=100_000).contains(&target) {
            return Err(OptionsError::OutOfRange {
                option: "target",
                min: 1,
                max: 100_000,
            });
        }
        let hands = options.hands.unwrap_or(5);
        if !(1..=100).contains(&hands) {
            return Err(OptionsError::OutOfRange {
                option: "hands",
                min: 1,
                max: 100,
            });
        }
        Ok(Rules {
            variant,
            target,
            passing: options.passing.unwrap_or(true),
            moon: options.moon.unwrap_or_default(),
            hands,
            bad_card: options.bad_card.unwrap_or_default(),
        })
    }

    /// The default rules of a variant.
    #[must_use]
    pub fn standard(variant: Variant) -> Rules {
        Rules::new(variant, &Options::default()).expect("defaults are valid")
    }

    /// Every option of the variant, spelled out with its value: the options
    /// [`Variant::option_specs`] lists (a test checks they agree), named here rather than read
    /// from that list, which every view would otherwise build and drop again.
    #[must_use]
    pub fn options(&self) -> Options {
        let mut options = Options::default();
        match self.variant {
            Variant::Hearts => {
                options.target = Some(self.target);
                options.passing = Some(self.passing);
                options.moon = Some(self.moon);
            }
            Variant::Filippa | Variant::Whist => options.target = Some(self.target),
            Variant::Hearts5 => options.hands = Some(self.hands),
            Variant::Tricks => {
                options.target = Some(self.target);
                options.bad_card = Some(self.bad_card);
            }
        }
        options
    }
}

/// One option as the lobby describes it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct OptionSpec {
    /// The key in [`Options`].
    pub name: &'static str,
    /// Its type and allowed values.
    #[serde(flatten)]
    pub kind: OptionKind,
    /// The value when the option is left out.
    pub default: serde_json::Value,
    /// What it does, for people.
    pub description: &'static str,
}

/// The type of an option.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum OptionKind {
    /// A whole number in `min..=max`.
    Integer {
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// true or false.
    Boolean,
    /// One of a few words.
    Choice {
        /// The allowed words.
        values: Vec<&'static str>,
    },
}

/// Why a variant name or options were refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OptionsError {
    /// No such variant.
    #[error("there is no variant `{0}`: choose hearts, filippa, hearts5, tricks or whist")]
    UnknownVariant(String),
    /// The option exists, but not for this variant.
    #[error("the option `{option}` does not apply to {variant}")]
    NotForVariant {
        /// The option's name.
        option: &'static str,
        /// The variant asked for.
        variant: Variant,
    },
    /// The value is outside its range.
    #[error("the option `{option}` must be between {min} and {max}")]
    OutOfRange {
        /// The option's name.
        option: &'static str,
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A view holds a hand's finished tricks inline, room for `MAX_HAND_SIZE` of them.
    #[test]
    fn no_hand_is_larger_than_the_largest_hand_size() {
        for variant in Variant::ALL {
            assert!(
                variant.hand_size() as usize <= Variant::MAX_HAND_SIZE,
                "{variant}"
            );
        }
    }

    #[test]
    fn defaults_follow_the_rules_reference() {
        let hearts = Rules::standard(Variant::Hearts);
        assert_eq!(
            (hearts.target, hearts.passing, hearts.moon),
            (100, true, Moon::Add)
        );
        assert_eq!(Rules::standard(Variant::Tricks).target, 1000);
        assert_eq!(Rules::standard(Variant::Tricks).bad_card, BadCard::Penalty);
        assert_eq!(Rules::standard(Variant::Whist).target, 5);
        assert_eq!(Rules::standard(Variant::Hearts5).hands, 5);
    }

    #[test]
    fn options_of_another_variant_are_refused() {
        let options = Options {
            moon: Some(Moon::Subtract),
            ..Options::default()
        };
        let err = Rules::new(Variant::Whist, &options).unwrap_err();
        assert_eq!(err.to_string(), "the option `moon` does not apply to whist");
        let json = r#"{"colour": "red"}"#;
        assert!(serde_json::from_str::<Options>(json).is_err());
    }

    #[test]
    fn the_options_spelled_out_are_the_ones_listed() {
        for variant in Variant::ALL {
            let options = serde_json::to_value(Rules::standard(variant).options()).unwrap();
            let spelled: Vec<&str> = options
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            let mut listed: Vec<&str> = variant.option_specs().iter().map(|s| s.name).collect();
            listed.sort_unstable();
            assert_eq!(spelled, listed, "{variant}");
        }
    }

    #[test]
    fn resolved_options_round_trip() {
        for variant in Variant::ALL {
            let rules = Rules::standard(variant);
            assert_eq!(Rules::new(variant, &rules.options()).unwrap(), rules);
            assert_eq!(variant.name().parse::<Variant>().unwrap(), variant);
        }
    }
}
