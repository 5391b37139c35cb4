//! The variants and their named options, with defaults and validation.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::fixed_deal::FixedDeal;
use crate::deck::Deck;

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
    /// Spades: partnerships bid their tricks, spades are trump, bags and nil, to 500.
    Spades,
    /// Oh Hell: 3 to 7 players bid the exact tricks they will take, hand sizes go down and up.
    #[serde(rename = "ohhell")]
    OhHell,
    /// Euchre: partners make trump by calls, the jacks are bowers, five cards, to 10.
    Euchre,
    /// Contract Bridge: an auction, declarer plays dummy's cards too, duplicate scoring.
    Bridge,
}

impl Variant {
    /// Every variant, in the order the lobby lists them.
    pub const ALL: [Variant; 9] = [
        Variant::Hearts,
        Variant::Filippa,
        Variant::Hearts5,
        Variant::Tricks,
        Variant::Whist,
        Variant::Spades,
        Variant::OhHell,
        Variant::Euchre,
        Variant::Bridge,
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
            Variant::Spades => "spades",
            Variant::OhHell => "ohhell",
            Variant::Euchre => "euchre",
            Variant::Bridge => "bridge",
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
            Variant::Spades => {
                "Partners bid the tricks they will take; spades are always trump; beware of bags."
            }
            Variant::OhHell => {
                "Bid exactly the tricks you will take, as the hands shrink and grow again."
            }
            Variant::Euchre => {
                "Partners order up or name trump; the jacks are bowers; take three of five tricks."
            }
            Variant::Bridge => {
                "Partners bid for the contract; declarer plays both hands, dummy's face up."
            }
        }
    }

    /// How many seats the table has by default. Oh Hell takes its count from the `players`
    /// option: a game's own count is [`Rules::players`].
    #[must_use]
    pub fn players(self) -> u8 {
        if self == Variant::Hearts5 { 5 } else { 4 }
    }

    /// The seat counts the variant can be played with (one, but for Oh Hell).
    #[must_use]
    pub fn player_range(self) -> std::ops::RangeInclusive<u8> {
        if self == Variant::OhHell {
            3..=7
        } else {
            self.players()..=self.players()
        }
    }

    /// How many cards each player is dealt; for Oh Hell, whose hands change size from hand to
    /// hand, the first hand at the default table (a game's own sizes: [`Rules::hand_size`]).
    #[must_use]
    pub fn hand_size(self) -> u32 {
        match self {
            Variant::Hearts5 => 10,
            Variant::OhHell => 12,
            Variant::Euchre => super::euchre::HAND_SIZE,
            _ => 13,
        }
    }

    /// True when the number of cards dealt changes from hand to hand (Oh Hell): each hand's
    /// `hand_started` then says how many.
    #[must_use]
    pub fn hand_size_varies(self) -> bool {
        self == Variant::OhHell
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
            Variant::Spades => vec![
                target(500, "The first partnership to reach this many points wins."),
                integer(
                    "mercy",
                    0,
                    100_000,
                    200,
                    "A partnership at minus this many points or below loses (0: never).",
                ),
                boolean(
                    "nil",
                    true,
                    "A bid of 0 is nil: 100 points if the bidder takes no trick, minus 100 if they do.",
                ),
                integer(
                    "bag_limit",
                    0,
                    100,
                    10,
                    "Every this many overtricks (bags) a partnership takes cost the bag penalty (0: bags are not counted).",
                ),
                integer(
                    "bag_penalty",
                    0,
                    1000,
                    100,
                    "What each full count of bags costs.",
                ),
                boolean(
                    "spades_broken",
                    true,
                    "Spades may not be led until a spade has been played, unless the leader holds only spades.",
                ),
                boolean(
                    "jokers",
                    false,
                    "The big and little joker replace the twos of clubs and diamonds: the two highest spades, above the ace; the dealer's left leads first.",
                ),
                boolean(
                    "blind_nil",
                    false,
                    "A player of a side far enough behind may bid nil before looking at their cards: 200 points if they take no trick, minus 200 if they do; they and their partner then exchange two cards.",
                ),
                integer(
                    "blind_nil_behind",
                    0,
                    100_000,
                    100,
                    "How far behind a side must be for its players to bid blind nil.",
                ),
            ],
            Variant::OhHell => vec![
                integer("players", 3, 7, 4, "Seats at the table (3 to 7)."),
                OptionSpec {
                    name: "schedule",
                    kind: OptionKind::Choice {
                        values: vec!["down_up", "down", "up", "up_down"],
                    },
                    default: "down_up".into(),
                    description: "Hand sizes: from the largest (a card left to turn up) down to 1 and back up, only down, only up, or up then down.",
                },
                boolean(
                    "hook",
                    true,
                    "The dealer, bidding last, may not make the bids add up to the tricks in the hand.",
                ),
                OptionSpec {
                    name: "scoring",
                    kind: OptionKind::Choice {
                        values: vec!["standard", "minus_difference", "tricks_plus_ten"],
                    },
                    default: "standard".into(),
                    description: "An exact bid scores 10 plus the bid, else 0; or else minus the difference; or a point per trick and 10 more for an exact bid.",
                },
            ],
            Variant::Euchre => vec![
                target(10, "The first partnership to reach this many points wins."),
                boolean(
                    "stick_the_dealer",
                    false,
                    "When everyone passes twice the dealer must name trump, instead of the hand being thrown in.",
                ),
                boolean(
                    "alone",
                    true,
                    "The maker may go alone: their partner sits the hand out, and taking all five tricks scores 4.",
                ),
                boolean(
                    "defend_alone",
                    false,
                    "Once trump is made, one defender may defend alone: their partner sits out, and euchring the makers scores 4.",
                ),
            ],
            Variant::Bridge => vec![
                OptionSpec {
                    name: "hands",
                    kind: OptionKind::Integer { min: 1, max: 100 },
                    default: super::bridge::BOARDS.into(),
                    description: "Boards in a match, scored as in duplicate; with rubber scoring, the most boards a rubber lasts (12 unless set) before it is settled as it stands.",
                },
                boolean(
                    "rubber",
                    false,
                    "Rubber scoring: the match is one rubber, won by the first side to make two games; vulnerability comes from the games won.",
                ),
            ],
        }
    }
}

/// An integer option's description.
fn integer(
    name: &'static str,
    min: i64,
    max: i64,
    default: i64,
    description: &'static str,
) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Integer { min, max },
        default: default.into(),
        description,
    }
}

/// A true-or-false option's description.
fn boolean(name: &'static str, default: bool, description: &'static str) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Boolean,
        default: default.into(),
        description,
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

/// How Oh Hell's hand sizes go from hand to hand, between the largest hand that leaves a card
/// to turn up for trump and a hand of one card.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Schedule {
    /// From the largest down to one, then back up to the largest.
    #[default]
    DownUp,
    /// From the largest down to one.
    Down,
    /// From one up to the largest.
    Up,
    /// From one up to the largest, then back down to one.
    UpDown,
}

/// How an Oh Hell hand scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OhHellScoring {
    /// An exact bid scores 10 plus the bid; any other result scores nothing.
    #[default]
    Standard,
    /// An exact bid scores 10 plus the bid; otherwise minus the difference.
    MinusDifference,
    /// A point per trick taken, and 10 more for an exact bid.
    TricksPlusTen,
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
    /// Seats at the table (ohhell).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<u8>,
    /// A partnership at minus this or below loses; 0 never (spades).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mercy: Option<i32>,
    /// A bid of 0 is nil (spades).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nil: Option<bool>,
    /// Overtricks that cost the bag penalty; 0: bags are not counted (spades).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bag_limit: Option<i32>,
    /// What each full count of bags costs (spades).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bag_penalty: Option<i32>,
    /// Spades may not be led until one has been played (spades).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spades_broken: Option<bool>,
    /// The big and little joker replace the twos of clubs and diamonds (spades).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jokers: Option<bool>,
    /// A side far enough behind may bid nil before looking at its cards (spades).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blind_nil: Option<bool>,
    /// How far behind a side must be to bid blind nil (spades).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blind_nil_behind: Option<i32>,
    /// How hand sizes go (ohhell).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Schedule>,
    /// The dealer may not make the bids add up to the tricks (ohhell).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook: Option<bool>,
    /// How a hand scores (ohhell).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scoring: Option<OhHellScoring>,
    /// The dealer must name trump when everyone passes twice (euchre).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stick_the_dealer: Option<bool>,
    /// The maker may go alone (euchre).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alone: Option<bool>,
    /// A defender may defend alone (euchre).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defend_alone: Option<bool>,
    /// Rubber scoring instead of duplicate (bridge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rubber: Option<bool>,
    /// A practice table's deal: every board is dealt these four hands instead of shuffled
    /// ones, written as PBN's `Deal` tag value (bridge). Not dealt from the table's secret, so
    /// its hands carry no commitment. Not in the lobby's option list: set up from a PBN board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<FixedDeal>,
    /// The board number the fixed `deal` is played as: it names the dealer and who is
    /// vulnerable, as in duplicate (bridge; 1 unless set, and only with `deal`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<u32>,
}

impl Options {
    /// These options as the players and the lobby are shown them: a practice table's fixed
    /// `deal` is every hand of the board, so it stays with the table and its stored log.
    #[must_use]
    pub fn shown(&self) -> Options {
        Options {
            deal: None,
            ..self.clone()
        }
    }
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
    /// Hands in a hearts5 match; boards in a bridge match.
    pub hands: u32,
    /// What an illegal card does in `tricks`.
    pub bad_card: BadCard,
    /// Seats at the table: the variant's count, or Oh Hell's `players`.
    pub players: u8,
    /// Spades: a partnership at `-mercy` or below loses; 0 never.
    pub mercy: i32,
    /// Spades: a bid of 0 is nil.
    pub nil: bool,
    /// Spades: bags that cost the penalty; 0 when bags are not counted.
    pub bag_limit: i32,
    /// Spades: what each full count of bags costs.
    pub bag_penalty: i32,
    /// Spades: no spade lead until a spade has been played.
    pub spades_broken: bool,
    /// Spades: the jokers are dealt instead of the twos of clubs and diamonds.
    pub jokers: bool,
    /// Spades: a side far enough behind may bid nil before looking at its cards.
    pub blind_nil: bool,
    /// Spades: how far behind a side must be to bid blind nil.
    pub blind_nil_behind: i32,
    /// Oh Hell: how hand sizes go.
    pub schedule: Schedule,
    /// Oh Hell: the dealer may not make the bids add up to the tricks.
    pub hook: bool,
    /// Oh Hell: how a hand scores.
    pub scoring: OhHellScoring,
    /// Euchre: the dealer must name trump when everyone passes twice.
    pub stick_the_dealer: bool,
    /// Euchre: the maker may go alone.
    pub alone: bool,
    /// Euchre: a defender may defend alone.
    pub defend_alone: bool,
    /// Bridge: rubber scoring instead of duplicate.
    pub rubber: bool,
    /// Bridge: the four hands every board is dealt, instead of shuffled ones.
    pub deal: Option<FixedDeal>,
    /// Bridge: the board number a fixed deal is played as (dealer and vulnerability).
    pub board: u32,
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
            ("players", options.players.is_some()),
            ("mercy", options.mercy.is_some()),
            ("nil", options.nil.is_some()),
            ("bag_limit", options.bag_limit.is_some()),
            ("bag_penalty", options.bag_penalty.is_some()),
            ("spades_broken", options.spades_broken.is_some()),
            ("jokers", options.jokers.is_some()),
            ("blind_nil", options.blind_nil.is_some()),
            ("blind_nil_behind", options.blind_nil_behind.is_some()),
            ("schedule", options.schedule.is_some()),
            ("hook", options.hook.is_some()),
            ("scoring", options.scoring.is_some()),
            ("stick_the_dealer", options.stick_the_dealer.is_some()),
            ("alone", options.alone.is_some()),
            ("defend_alone", options.defend_alone.is_some()),
            ("rubber", options.rubber.is_some()),
        ];
        if let Some((name, _)) = given.iter().find(|(name, set)| *set && !has(name)) {
            return Err(OptionsError::NotForVariant {
                option: name,
                variant,
            });
        }
        let board = fixed_board(variant, options)?;
        let target = options.target.unwrap_or(match variant {
            Variant::Tricks => 1000,
            Variant::Whist => 5,
            Variant::Spades => 500,
            Variant::Euchre => 10,
            _ => 100,
        });
        let hands = options.hands.unwrap_or(match variant {
            Variant::Bridge if options.rubber == Some(true) => super::bridge::RUBBER_BOARDS,
            Variant::Bridge => super::bridge::BOARDS,
            _ => 5,
        });
        let players = options.players.unwrap_or(variant.players());
        let range = variant.player_range();
        in_range("target", target.into(), 1, 100_000)?;
        in_range("hands", hands.into(), 1, 100)?;
        in_range(
            "players",
            players.into(),
            (*range.start()).into(),
            (*range.end()).into(),
        )?;
        let mercy = options.mercy.unwrap_or(200);
        in_range("mercy", mercy.into(), 0, 100_000)?;
        let bag_limit = options.bag_limit.unwrap_or(10);
        in_range("bag_limit", bag_limit.into(), 0, 100)?;
        let bag_penalty = options.bag_penalty.unwrap_or(100);
        in_range("bag_penalty", bag_penalty.into(), 0, 1000)?;
        let blind_nil_behind = options.blind_nil_behind.unwrap_or(100);
        in_range("blind_nil_behind", blind_nil_behind.into(), 0, 100_000)?;
        Ok(Rules {
            variant,
            target,
            passing: options.passing.unwrap_or(true),
            moon: options.moon.unwrap_or_default(),
            hands,
            bad_card: options.bad_card.unwrap_or_default(),
            players,
            mercy,
            nil: options.nil.unwrap_or(true),
            bag_limit,
            bag_penalty,
            spades_broken: options.spades_broken.unwrap_or(true),
            jokers: options.jokers.unwrap_or(false),
            blind_nil: options.blind_nil.unwrap_or(false),
            blind_nil_behind,
            schedule: options.schedule.unwrap_or_default(),
            hook: options.hook.unwrap_or(true),
            scoring: options.scoring.unwrap_or_default(),
            stick_the_dealer: options.stick_the_dealer.unwrap_or(false),
            alone: options.alone.unwrap_or(true),
            defend_alone: options.defend_alone.unwrap_or(false),
            rubber: options.rubber.unwrap_or(false),
            deal: options.deal,
            board,
        })
    }

    /// Seats at the table.
    #[must_use]
    pub fn players(&self) -> u8 {
        self.players
    }

    /// The cards this game deals.
    #[must_use]
    pub fn deck(&self) -> Deck {
        if self.variant == Variant::Euchre {
            Deck::new(super::euchre::deck_cards()).expect("24 cards")
        } else if self.jokers {
            Deck::SPADES_JOKERS
        } else {
            Deck::STANDARD
        }
    }

    /// The default rules of a variant.
    #[must_use]
    pub fn standard(variant: Variant) -> Rules {
        Rules::new(variant, &Options::default()).expect("defaults are valid")
    }

    /// Every option of the variant, spelled out with its value: the options
    /// [`Variant::option_specs`] lists (a test checks they agree; Spades' blind nil options
    /// only when blind nil is on), named here rather than read
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
            Variant::Spades => {
                options.target = Some(self.target);
                options.mercy = Some(self.mercy);
                options.nil = Some(self.nil);
                options.bag_limit = Some(self.bag_limit);
                options.bag_penalty = Some(self.bag_penalty);
                options.spades_broken = Some(self.spades_broken);
                // Jokers and blind nil are spelled out only when on: the tables stored before
                // these options existed keep their options, and so their views, byte for byte.
                options.jokers = self.jokers.then_some(true);
                if self.blind_nil {
                    options.blind_nil = Some(true);
                    options.blind_nil_behind = Some(self.blind_nil_behind);
                }
            }
            Variant::OhHell => {
                options.players = Some(self.players);
                options.schedule = Some(self.schedule);
                options.hook = Some(self.hook);
                options.scoring = Some(self.scoring);
            }
            Variant::Euchre => {
                options.target = Some(self.target);
                options.stick_the_dealer = Some(self.stick_the_dealer);
                options.alone = Some(self.alone);
                options.defend_alone = Some(self.defend_alone);
            }
            Variant::Bridge => {
                options.hands = Some(self.hands);
                options.rubber = Some(self.rubber);
                // Spelled out only at a practice table: other tables keep their options, and
                // so their stored records and views, byte for byte.
                if self.deal.is_some() {
                    options.deal = self.deal;
                    options.board = Some(self.board);
                }
            }
        }
        options
    }
}

/// The board number of a fixed deal: `deal` and `board` are Bridge's practice-table options,
/// not in the lobby's list (they are set up from a PBN board), and `board` needs a `deal`.
fn fixed_board(variant: Variant, options: &Options) -> Result<u32, OptionsError> {
    let given = [
        ("deal", options.deal.is_some()),
        ("board", options.board.is_some()),
    ];
    if variant != Variant::Bridge
        && let Some((name, _)) = given.iter().find(|(_, set)| *set)
    {
        return Err(OptionsError::NotForVariant {
            option: name,
            variant,
        });
    }
    if options.board.is_some() && options.deal.is_none() {
        return Err(OptionsError::BoardWithoutDeal);
    }
    let board = options.board.unwrap_or(1);
    in_range("board", board.into(), 1, MAX_BOARD.into())?;
    Ok(board)
}

/// The highest board number a fixed deal may be played as.
const MAX_BOARD: u32 = 9999;

/// Refuses an option's value outside `min..=max`.
fn in_range(option: &'static str, value: i64, min: i64, max: i64) -> Result<(), OptionsError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(OptionsError::OutOfRange { option, min, max })
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
    #[error(
        "there is no variant `{0}`: choose hearts, filippa, hearts5, tricks, whist, spades or ohhell"
    )]
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
    /// A board number with no fixed deal to play as it.
    #[error("the option `board` numbers a fixed `deal`: give the deal too")]
    BoardWithoutDeal,
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
    fn spades_and_ohhell_defaults_follow_the_rules_reference() {
        let spades = Rules::standard(Variant::Spades);
        assert_eq!(
            (
                spades.target,
                spades.mercy,
                spades.nil,
                spades.spades_broken
            ),
            (500, 200, true, true)
        );
        assert_eq!(
            (spades.bag_limit, spades.bag_penalty, spades.players),
            (10, 100, 4)
        );
        let ohhell = Rules::standard(Variant::OhHell);
        assert_eq!(
            (ohhell.players, ohhell.schedule, ohhell.hook, ohhell.scoring),
            (4, Schedule::DownUp, true, OhHellScoring::Standard)
        );
        assert_eq!(Rules::standard(Variant::Hearts5).players(), 5);
    }

    #[test]
    fn ohhell_seats_three_to_seven_players() {
        for players in 3..=7 {
            let options = Options {
                players: Some(players),
                ..Options::default()
            };
            assert_eq!(
                Rules::new(Variant::OhHell, &options).unwrap().players(),
                players
            );
        }
        for players in [0, 2, 8] {
            let options = Options {
                players: Some(players),
                ..Options::default()
            };
            let err = Rules::new(Variant::OhHell, &options).unwrap_err();
            assert_eq!(
                err.to_string(),
                "the option `players` must be between 3 and 7"
            );
        }
        let options = Options {
            players: Some(5),
            ..Options::default()
        };
        let err = Rules::new(Variant::Spades, &options).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the option `players` does not apply to spades"
        );
        let json = r#"{"players": 6, "schedule": "up_down", "scoring": "tricks_plus_ten"}"#;
        let options: Options = serde_json::from_str(json).unwrap();
        let rules = Rules::new(Variant::OhHell, &options).unwrap();
        assert_eq!(
            (rules.schedule, rules.scoring),
            (Schedule::UpDown, OhHellScoring::TricksPlusTen)
        );
        assert_eq!("OhHell".parse::<Variant>().unwrap(), Variant::OhHell);
        assert_eq!(
            serde_json::to_string(&Variant::OhHell).unwrap(),
            r#""ohhell""#
        );
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
        let blind = Options {
            blind_nil: Some(true),
            ..Options::default()
        };
        let rules = Rules::new(Variant::Spades, &blind).unwrap();
        let options = serde_json::to_value(rules.options()).unwrap();
        assert_eq!(options["blind_nil_behind"], 100);
        assert_eq!(
            Rules::new(Variant::Spades, &rules.options()).unwrap(),
            rules
        );
        for variant in Variant::ALL {
            // `jokers` and `blind_nil` are spelled out only when on (see `Rules::options`).
            let mut rules = Rules::standard(variant);
            rules.jokers = variant == Variant::Spades;
            rules.blind_nil = variant == Variant::Spades;
            let options = serde_json::to_value(rules.options()).unwrap();
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
        let jokers = Options {
            jokers: Some(true),
            ..Options::default()
        };
        let rules = Rules::new(Variant::Spades, &jokers).unwrap();
        assert_eq!(
            Rules::new(Variant::Spades, &rules.options()).unwrap(),
            rules
        );
        assert_eq!(rules.options().jokers, Some(true));
        assert_eq!(Rules::standard(Variant::Spades).options().jokers, None);
    }

    #[test]
    fn jokers_are_a_spades_option_that_changes_the_deck() {
        assert!(!Rules::standard(Variant::Spades).jokers);
        assert_eq!(Rules::standard(Variant::Spades).deck(), Deck::STANDARD);
        let jokers = Options {
            jokers: Some(true),
            ..Options::default()
        };
        assert_eq!(
            Rules::new(Variant::Spades, &jokers).unwrap().deck(),
            Deck::SPADES_JOKERS
        );
        let err = Rules::new(Variant::Hearts, &jokers).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the option `jokers` does not apply to hearts"
        );
    }
}
