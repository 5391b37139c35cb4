//! `parlor-bench engine`: how fast the engine plays, with uniformly random legal moves on one
//! thread.
//!
//! Every move goes through the real engine ([`Game::play_card`] / [`Game::pass_cards`], the
//! same checks and events as [`Game::apply`]); only the building of `Legal` and `Action` values
//! is skipped. Moves are chosen as the random bot chooses them (a uniform legal card from the
//! engine's seeded stream, see [`RandomBot::pick`](parlor_shared::bots::RandomBot::pick)),
//! written out here so the choice inlines into the loop: the figure is the engine's, not a
//! function call's per move.

mod versus;

use std::time::Instant;

use clap::Args;
use parlor_shared::bots::BotRng;
use parlor_shared::rules::{PASS_COUNT, Phase, Rules};
use parlor_shared::{Action, Card, CardSet, Event, Game, Legal, Variant};

/// Options of `parlor-bench engine`.
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// The variant to play.
    #[arg(long, default_value = "hearts")]
    pub variant: Variant,
    /// How many hands to play.
    #[arg(long, default_value_t = 1_000_000)]
    pub hands: u64,
    /// Seed of the first match (each next match adds one).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Another program to compare with, in alternating rounds (`--rounds`); it must print
    /// its rate as `KEY=NUMBER` or `KEY: NUMBER` (`--versus-key`). Run without a shell. Give
    /// it again to compare with several programs in the same rounds.
    #[arg(long, value_name = "COMMAND")]
    pub versus: Vec<String>,
    /// The name of the rate the `--versus` programs print.
    #[arg(long, default_value = "hands_per_sec", value_name = "KEY")]
    pub versus_key: String,
    /// Rounds of `--versus`: each runs every program once and plays `--hands` hands.
    #[arg(long, default_value_t = 5)]
    pub rounds: usize,
}

/// Plays `hands` hands of random legal moves (passing included) and prints the rate, or
/// compares it with other programs' (`--versus`).
pub fn run(args: &EngineArgs) -> anyhow::Result<()> {
    if !args.versus.is_empty() {
        println!("built for: {}", instruction_sets().join(" "));
        let versus = versus::Versus {
            commands: &args.versus,
            key: &args.versus_key,
            rounds: args.rounds,
        };
        return versus::run(versus, || timed_hands(args).rate());
    }
    let timed = timed_hands(args);
    println!("played {} hands in {:.3} s", timed.hands, timed.seconds);
    println!("built for: {}", instruction_sets().join(" "));
    println!("{}: {:.0} hands/s", args.variant, timed.rate());
    Ok(())
}

/// Hands played, and how long they took.
struct Timed {
    hands: u64,
    seconds: f64,
}

impl Timed {
    /// Hands per second.
    fn rate(&self) -> f64 {
        self.hands as f64 / self.seconds
    }
}

/// Plays `args.hands` random hands and times them.
fn timed_hands(args: &EngineArgs) -> Timed {
    let start = Instant::now();
    let hands = play_random_hands(args.variant, args.hands, args.seed);
    Timed {
        hands,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// The instruction-set extensions this binary was compiled to use: a figure is only comparable
/// with another built for the same ones (the release build targets x86-64-v2; `RUSTFLAGS="-C
/// target-cpu=native"` adds what the building machine has, such as BMI2).
fn instruction_sets() -> Vec<&'static str> {
    let mut sets = vec![std::env::consts::ARCH];
    for (name, enabled) in [
        ("popcnt", cfg!(target_feature = "popcnt")),
        ("bmi1", cfg!(target_feature = "bmi1")),
        ("bmi2", cfg!(target_feature = "bmi2")),
        ("avx2", cfg!(target_feature = "avx2")),
    ] {
        if enabled {
            sets.push(name);
        }
    }
    sets
}

/// A uniformly random card of `cards` (not empty), as `RandomBot::pick` draws it. `below(len)`
/// is a position in the set, so `select` need not test it again as `nth` does.
#[inline]
fn pick(rng: &mut BotRng, cards: CardSet) -> Card {
    cards.select(rng.below(cards.len()))
}

/// Plays at least `hands` hands through whole matches; returns how many were played.
pub fn play_random_hands(variant: Variant, hands: u64, seed: u64) -> u64 {
    let rules = Rules::standard(variant);
    let mut rng = BotRng::new(seed);
    let mut events: Vec<Event> = Vec::with_capacity(EVENTS_KEPT);
    let mut played = 0;
    let mut match_seed = seed;
    while played < hands {
        let mut game = Game::with_rules(rules, match_seed, None);
        match_seed += 1;
        while played < hands && !game.is_over() {
            play_hand(&mut game, &mut rng, &mut events);
            events.clear();
            played += 1;
        }
    }
    played
}

/// Room for a hand's events (its moves, tricks, scoring and the next deal): they are dropped
/// once a hand, not checked after every move.
const EVENTS_KEPT: usize = 128;

/// Plays the current hand to its end (the next deal or the match's end): every pending pass
/// (in seat order), then a card from the seat to play until the hand is over. A hand, not a
/// move, is the loop's unit, so a move checks no more than whether its hand ended, and the
/// caller drops the hand's events once per hand.
#[inline]
fn play_hand(game: &mut Game, shared_rng: &mut BotRng, events: &mut Vec<Event>) {
    // The hand draws from a copy kept in this frame: the generator's state then stays in
    // registers, where behind the reference it went back to memory after every card.
    let mut local_rng = shared_rng.clone();
    let rng = &mut local_rng;
    let hand = game.hand_number();
    if game.phase() == Phase::Passing {
        for seat in game.to_pass().iter() {
            let mut left = game.hand(seat);
            let mut chosen = CardSet::EMPTY;
            for _ in 0..PASS_COUNT {
                let card = pick(rng, left);
                left.remove(card);
                chosen.insert(card);
            }
            game.pass_cards(seat, chosen, events)
                .expect("random legal passes are accepted");
        }
    }
    // Bids, as the random bot makes them: uniform among the allowed ones.
    while game.phase() == Phase::Bidding {
        let seat = game.to_act().first().expect("a seat bids");
        let Legal::Bid {
            min,
            max,
            forbidden,
        } = game.legal_actions(seat)
        else {
            unreachable!("a bid is asked in the bidding phase");
        };
        let allowed: Vec<u8> = (min..=max).filter(|b| Some(*b) != forbidden).collect();
        let tricks = allowed[rng.below(allowed.len() as u32) as usize];
        game.bid(seat, tricks, events)
            .expect("random legal bids are accepted");
    }
    // Trump calls and the dealer's discard (euchre), as the random bot makes them.
    while matches!(game.phase(), Phase::Calling | Phase::Discarding) && game.hand_number() == hand {
        let seat = game.to_act().first().expect("a seat calls");
        let action = match game.legal_actions(seat) {
            legal @ Legal::Call { .. } => {
                let calls = legal.calls();
                Action::Call(calls[rng.below(calls.len() as u32) as usize])
            }
            Legal::Discard { from } => Action::Discard {
                card: pick(rng, from),
            },
            _ => unreachable!("a call or a discard is asked while trump is made"),
        };
        game.apply_into(seat, &action, events)
            .expect("random legal calls are accepted");
    }
    while let Some((seat, legal)) = game.card_awaited() {
        if game.hand_number() != hand {
            break;
        }
        let card = pick(rng, legal);
        game.play_card(seat, card, events)
            .expect("random legal moves are accepted");
    }
    *shared_rng = local_rng;
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_shared::Options;
    use parlor_shared::bots::RandomBot;

    /// The workspace builds for x86-64-v2 (`.cargo/config.toml`): the card sets count with POPCNT.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_build_counts_cards_with_popcnt() {
        assert_eq!(instruction_sets()[..2], ["x86_64", "popcnt"]);
    }

    #[test]
    fn plays_the_hands_asked_for_in_every_variant() {
        for variant in Variant::ALL {
            assert_eq!(play_random_hands(variant, 30, 7), 30, "{variant}");
        }
    }

    /// The loop's own choice must be the random bot's: the same seed plays the same match,
    /// with the same events.
    #[test]
    fn chooses_as_the_random_bot_does() {
        for variant in Variant::ALL {
            let start = Game::new(variant, &Options::default(), 9).unwrap();
            let (mut by_bot, mut by_loop) = (start.clone(), start);
            let (mut bot_events, mut loop_events) = (Vec::new(), Vec::new());
            let mut bot = RandomBot::new(5);
            while let Some(seat) = by_bot.to_act().first() {
                bot.act_on(&mut by_bot, seat, &mut bot_events).unwrap();
            }
            let mut rng = BotRng::new(5);
            while !by_loop.is_over() {
                play_hand(&mut by_loop, &mut rng, &mut loop_events);
            }
            assert!(by_loop.is_over(), "{variant}");
            assert_eq!(by_loop, by_bot, "{variant}");
            assert_eq!(loop_events, bot_events, "{variant}");
        }
    }
}
