//! Parlor's pure core: cards, the rules of every variant, player views, bots and the wire
//! protocol. Nothing here does I/O, reads a clock or uses a thread-local random source, so a
//! game is fully determined by `(variant, options, seed, actions)`.

pub mod arena;
pub mod bots;
/// Contract Bridge apart from the engine: auction, boards, scoring, PBN, double-dummy solver.
pub mod bridge;
pub mod card;
pub mod deck;
pub mod fair;
pub mod protocol;
pub mod rules;
pub mod seat;
pub mod uva181;
pub mod view;

pub use card::{Card, CardParseError, CardSet, Rank, Suit};
pub use rules::{
    Action, Event, Game, Legal, Options, Phase, RuleError, Rules, Variant, VariantFacts,
};
pub use seat::{PerSeat, Seat, SeatList, SeatSet};
pub use view::PlayerView;
