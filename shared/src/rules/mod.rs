//! One rules engine for every trick-taking variant.
//!
//! [`Game`] is a phase machine (passing, calling trump, bidding, exchanging, discarding,
//! playing, match over) that deals, checks and runs the calls, the bidding and the tricks every
//! variant shares. Each variant's file (`hearts`, `filippa`, `hearts5`, `tricks`, `whist`,
//! `spades`, `ohhell`, `euchre`) holds everything that differs for it: trump and passing at the
//! deal, how trump is made, whether and what its players bid, legality beyond following suit,
//! scoring, what ends the match, the state only it keeps and the facts clients are told. They
//! meet `Game` through one seam, `variant_rules`; `per_variant` is the
//! one place that picks a variant's file.

mod bridge;
mod error;
mod euchre;
mod event;
mod facts;
pub mod filippa;
mod fixed_deal;
mod game;
mod hearts;
mod hearts5;
mod ohhell;
mod per_variant;
mod presets;
mod spades;
mod trick;
mod tricks;
mod trumps;
mod variant;
mod variant_rules;
mod whist;

pub use error::RuleError;
pub use euchre::score as euchre_score;
pub use event::{Action, BoardResult, Call, Event, HandResult, Legal, PassDirection, TrumpMade};
pub use facts::{FirstLead, PlayerCounts, TrumpRule, VariantFacts};
pub use fixed_deal::{DealError, FixedDeal};
pub use game::{EXCHANGE_COUNT, Game, PASS_COUNT, Phase, first_dealer};
pub use presets::{Preset, presets};
pub use trick::{CompletedTrick, Plays, Trick, TrickCards};
pub use trumps::{Trumps, same_colour};
pub use variant::{
    BadCard, Moon, OhHellScoring, OptionKind, OptionSpec, Options, OptionsError, Rules, Schedule,
    Variant,
};
