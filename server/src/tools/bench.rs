//! `parlor bench`: how fast the engine plays, with uniformly random legal moves on one thread.
//!
//! Every move goes through the real engine ([`Game::play_card`] / [`Game::pass_cards`], the
//! same checks and events as [`Game::apply`]), chosen by the random bot's allocation-free path
//! ([`RandomBot::act_on`], as the arena's random seats use); only the building of `Legal` and
//! `Action` values is skipped.

use std::time::Instant;

use clap::Args;
use parlor_shared::bots::RandomBot;
use parlor_shared::{Game, Options, Variant};

/// Options of `parlor bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The variant to play.
    #[arg(long, default_value = "hearts")]
    pub variant: Variant,
    /// How many hands to play.
    #[arg(long, default_value_t = 1_000_000)]
    pub hands: u64,
    /// Seed of the first match (each next match adds one).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Plays `hands` hands of random legal moves (passing included) and prints the rate.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let start = Instant::now();
    let played = play_random_hands(args.variant, args.hands, args.seed);
    let seconds = start.elapsed().as_secs_f64();
    println!("played {played} hands in {seconds:.3} s");
    println!("{}: {:.0} hands/s", args.variant, played as f64 / seconds);
    Ok(())
}

/// Plays at least `hands` hands through whole matches; returns how many were played.
pub fn play_random_hands(variant: Variant, hands: u64, seed: u64) -> u64 {
    let mut bot = RandomBot::new(seed);
    let mut events = Vec::with_capacity(64);
    let mut played = 0;
    let mut match_seed = seed;
    while played < hands {
        let mut game =
            Game::new(variant, &Options::default(), match_seed).expect("default options");
        match_seed += 1;
        let mut hand = game.hand_number();
        while !game.is_over() && played < hands {
            events.clear();
            let seat = game.to_act().first().expect("someone acts");
            bot.act_on(&mut game, seat, &mut events)
                .expect("random legal moves are accepted");
            if game.hand_number() != hand || game.is_over() {
                hand = game.hand_number();
                played += 1;
            }
        }
    }
    played
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_the_hands_asked_for_in_every_variant() {
        for variant in Variant::ALL {
            assert_eq!(play_random_hands(variant, 30, 7), 30, "{variant}");
        }
    }
}
