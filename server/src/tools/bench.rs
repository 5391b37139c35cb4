//! `parlor bench`: how fast the engine plays, with uniformly random legal moves on one thread.
//!
//! Every move goes through the real engine ([`Game::play_card`] / [`Game::pass_cards`], the
//! same checks and events as [`Game::apply`]), choosing uniformly among the legal moves the
//! engine reports; only the building of `Legal` and `Action` values is skipped.

use std::time::Instant;

use clap::Args;
use parlor_shared::rules::Phase;
use parlor_shared::{CardSet, Game, Options, Seat, Variant};

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

/// The move chooser's random source: SplitMix64, a few instructions per number. (The decks
/// are still shuffled by the engine's own seeded ChaCha stream.)
struct MoveRng(u64);

impl MoveRng {
    #[inline]
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniformly random card of a non-empty set (multiply-shift, no division).
    #[inline]
    fn pick(&mut self, cards: CardSet) -> parlor_shared::Card {
        let k = ((self.next() >> 32) * u64::from(cards.len())) >> 32;
        cards.nth(k as u32).expect("k is below the set's size")
    }
}

/// Plays at least `hands` hands through whole matches; returns how many were played.
pub fn play_random_hands(variant: Variant, hands: u64, seed: u64) -> u64 {
    let mut rng = MoveRng(seed);
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
            match game.phase() {
                Phase::Playing => {
                    let seat = game.next_to_play();
                    let card = rng.pick(game.legal_plays(seat));
                    game.play_card(seat, card, &mut events)
                        .expect("legal moves are accepted");
                }
                Phase::Passing => {
                    let seat: Seat = game.to_pass().first().expect("someone passes");
                    let mut left = game.hand(seat);
                    let mut chosen = CardSet::EMPTY;
                    for _ in 0..parlor_shared::rules::PASS_COUNT {
                        let card = rng.pick(left);
                        left.remove(card);
                        chosen.insert(card);
                    }
                    game.pass_cards(seat, chosen, &mut events)
                        .expect("legal passes are accepted");
                }
                Phase::MatchOver => unreachable!("the loop stops at the match's end"),
            }
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
