//! `parlor heartless-move`: the heartless script interface the other way round. It takes the
//! 24 `--key=value` arguments heartless gives a script, rebuilds the Hearts view they
//! describe and prints the move of a Parlor strategy (one card, or three to pass), so Parlor's
//! bots can play inside heartless.

use anyhow::{Context, bail};
use clap::Args;
use parlor_shared::bots::{Strategy, StrongBot, strategy};
use parlor_shared::{Action, CardSet, Variant};

use crate::tools::adapters::heartless;

/// Options of `parlor heartless-move`.
#[derive(Args, Debug)]
pub struct HeartlessMoveArgs {
    /// The strategy that decides (`heuristic`, `strong`, `strong:N`, `random`). The arguments
    /// carry no order of past tricks: `strong` searches from the cards, points and voids they
    /// do carry.
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
    // The finished tricks in the view are stand-ins (the arguments carry no trick order):
    // `strong` must take the voids from the arguments rather than infer them from those.
    let mut bot: Box<dyn Strategy> =
        match StrongBot::named(&args.strategy, Variant::Hearts, args.seed) {
            Some(strong) => Box::new(strong.with_known_voids(heartless::known_voids(&map))),
            None => match strategy(&args.strategy, Variant::Hearts, args.seed) {
                Some(bot) => bot,
                None => bail!("unknown strategy {:?}", args.strategy),
            },
        };
    let cards: CardSet = match bot.choose(&view) {
        Action::Play { card } => CardSet::single(card),
        Action::Pass { cards } => cards.into_iter().collect(),
        Action::Bid { .. }
        | Action::BlindNil
        | Action::SeeCards
        | Action::Exchange { .. }
        | Action::Call(_)
        | Action::Discard { .. }
        | Action::Claim { .. }
        | Action::AnswerClaim { .. } => bail!("hearts has no bidding"),
    };
    println!("{}", heartless::cards_text(cards));
    Ok(())
}
