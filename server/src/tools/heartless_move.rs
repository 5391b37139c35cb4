//! `parlor heartless-move`: the heartless script interface the other way round. It takes the
//! 24 `--key=value` arguments heartless gives a script, rebuilds the Hearts view they
//! describe and prints the move of a Parlor strategy (one card, or three to pass), so Parlor's
//! bots can play inside heartless.

use anyhow::{Context, bail};
use clap::Args;
use parlor_shared::bots::strategy;
use parlor_shared::{Action, CardSet, Variant};

use crate::tools::adapters::heartless;

/// Options of `parlor heartless-move`.
#[derive(Args, Debug)]
pub struct HeartlessMoveArgs {
    /// The strategy that decides (`heuristic`, `strong`, `random`). `strong` needs the order
    /// of past tricks, which the arguments do not carry; it plays the heuristic's move when
    /// the history cannot be rebuilt.
    #[arg(long, default_value = "heuristic")]
    pub strategy: String,
    /// Seed for strategies that draw at random.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// heartless's arguments: `--who=0 --hand=... --discarded=... ...`.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    pub heartless: Vec<String>,
}

/// Prints the move for the position the arguments describe.
pub fn run(args: &HeartlessMoveArgs) -> anyhow::Result<()> {
    let map = heartless::parse_arguments(&args.heartless);
    let view = heartless::view_from_arguments(&map).context("reading heartless's arguments")?;
    let Some(mut bot) = strategy(&args.strategy, Variant::Hearts, args.seed) else {
        bail!("unknown strategy {:?}", args.strategy);
    };
    let cards: CardSet = match bot.choose(&view) {
        Action::Play { card } => CardSet::single(card),
        Action::Pass { cards } => cards.into_iter().collect(),
    };
    println!("{}", heartless::cards_text(cards));
    Ok(())
}
