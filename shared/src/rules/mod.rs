//! One rules engine for every trick-taking variant.
//!
//! [`Game`] is a phase machine (passing, playing, match over) that deals, checks and scores;
//! what differs per variant lives in the small modules beside it.

mod error;
mod event;
mod facts;
pub mod filippa;
mod game;
mod hearts;
mod hearts5;
mod trick;
mod tricks;
mod variant;
mod whist;

pub use error::RuleError;
pub use event::{Action, Event, HandResult, Legal, PassDirection};
pub use facts::{FirstLead, TrumpRule, VariantFacts};
pub use game::{Game, PASS_COUNT, Phase};
pub use trick::{CompletedTrick, Trick};
pub use variant::{BadCard, Moon, OptionKind, OptionSpec, Options, OptionsError, Rules, Variant};
