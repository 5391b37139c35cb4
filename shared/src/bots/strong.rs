//! Determinized Monte Carlo: for each sampled deal of the unseen cards that agrees with the
//! view, every legal card is tried and the rest of the hand is played out by a rollout policy
//! through the real engine; the card with the best mean outcome is played. The budget is a
//! number of simulated hands, so the bot is deterministic given its seed (no clock).
//!
//! [`Strategy::choose_until`] may cut the search short: `stop()` is asked before each sampled
//! deal, and the bot decides from the deals it has played out (each one tries every legal
//! card), or plays the heuristic when it has none.

use super::Strategy;
use super::heuristic::{self, HeuristicBot};
use super::random::RandomBot;
use super::sample::Constraints;
use super::sim::Position;
use super::table::Table;
use crate::card::Card;
use crate::deck::DeckRng;
use crate::rules::{Action, Game, HandResult, Legal, Variant};
use crate::seat::Seat;
use crate::view::PlayerView;

/// How the simulated hands are finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Every seat plays the heuristic (stronger, slower).
    Heuristic,
    /// Every seat plays uniformly at random.
    Random,
}

/// The Monte Carlo player.
#[derive(Clone, Debug)]
pub struct StrongBot {
    rng: DeckRng,
    /// Simulated hands per decision (split evenly among the legal cards).
    pub budget: u32,
    /// The rollout policy.
    pub rollout: Rollout,
}

impl StrongBot {
    /// Default budget: enough to beat the heuristic clearly, cheap enough for the arena.
    pub const DEFAULT_BUDGET: u32 = 400;

    /// A Monte Carlo bot with its own reproducible stream.
    #[must_use]
    pub fn new(seed: u64, budget: u32, rollout: Rollout) -> Self {
        StrongBot {
            rng: DeckRng::new(seed),
            budget,
            rollout,
        }
    }

    /// The card with the best mean simulated outcome, or `None` if no deal could be rebuilt
    /// (or `stop()` fired before the first one was played out).
    fn search(
        &mut self,
        view: &PlayerView,
        cards: &[Card],
        stop: &dyn Fn() -> bool,
    ) -> Option<Card> {
        let constraints = Constraints::of(view)?;
        let me = view.seat?;
        let worlds = (self.budget as usize / cards.len()).max(4);
        let mut totals = vec![0.0f64; cards.len()];
        let mut built = 0;
        let mut failures = 0;
        let mut random = RandomBot::new(self.rng.next_u64());
        while built < worlds {
            if stop() {
                break;
            }
            let hands = constraints.sample(&mut self.rng);
            let pos = match Position::build(view, &hands, &mut self.rng) {
                Ok(pos) => pos,
                Err(_) => {
                    failures += 1;
                    if failures > 2 * worlds {
                        break;
                    }
                    continue;
                }
            };
            built += 1;
            let sim_me = pos.sim_seat(me);
            for (i, &card) in cards.iter().enumerate() {
                let mut game = pos.game.clone();
                let hand = game.hand_number();
                if game.apply(sim_me, &Action::Play { card }).is_err() {
                    return None;
                }
                let result = self.finish_hand(&mut game, hand, &mut random);
                totals[i] += value(view.variant, &result, sim_me);
            }
        }
        if built == 0 {
            return None;
        }
        let best = (0..cards.len()).max_by(|a, b| totals[*a].total_cmp(&totals[*b]))?;
        Some(cards[best])
    }

    /// Plays the hand to its end with the rollout policy; returns its score line.
    fn finish_hand(&self, game: &mut Game, hand: u32, random: &mut RandomBot) -> HandResult {
        let mut events = Vec::with_capacity(16);
        while !game.is_over() && game.hand_number() == hand {
            let seat = game.next_to_play();
            let card = match self.rollout {
                Rollout::Heuristic => heuristic::play(&Table::from_game(game, seat)),
                Rollout::Random => random.pick(game.legal_plays(seat)).expect("a legal card"),
            };
            events.clear();
            game.apply_into(seat, &Action::Play { card }, &mut events)
                .expect("rollout plays are legal");
        }
        game.history().last().cloned().expect("a finished hand")
    }
}

/// How good a finished hand is for `me` (higher is better), in the variant's own terms and
/// relative to the other seats.
fn value(variant: Variant, r: &HandResult, me: Seat) -> f64 {
    let n = r.points.len() as f64;
    let mean_others = |v: &dyn Fn(Seat) -> f64| -> f64 {
        let total: f64 = (0..r.points.len() as u8).map(|s| v(Seat(s))).sum();
        (total - v(me)) / (n - 1.0)
    };
    match variant {
        Variant::Hearts | Variant::Hearts5 => {
            let p = |s: Seat| f64::from(r.points[s]);
            mean_others(&p) - p(me)
        }
        Variant::Filippa => {
            // The prize decides the match; penalties break ties between prize-less outcomes.
            let p = |s: Seat| f64::from(r.points[s]) + 0.2 * f64::from(r.penalties[s]);
            p(me) - mean_others(&p)
        }
        Variant::Whist => {
            let ours = f64::from(r.tricks[me] + r.tricks[me.partner()]);
            ours + 2.0 * f64::from(r.points[me])
        }
        Variant::Tricks => {
            let t = |s: Seat| f64::from(r.tricks[s]);
            t(me) - mean_others(&t)
        }
    }
}

impl Strategy for StrongBot {
    fn name(&self) -> &'static str {
        match self.rollout {
            Rollout::Heuristic => "strong",
            Rollout::Random => "strong-random",
        }
    }

    fn choose(&mut self, view: &PlayerView) -> Action {
        self.choose_until(view, &|| false)
    }

    fn choose_until(&mut self, view: &PlayerView, stop: &dyn Fn() -> bool) -> Action {
        if let Legal::Play { cards } = view.legal
            && cards.len() > 1
        {
            let options = cards.to_vec();
            if let Some(card) = self.search(view, &options, stop) {
                return Action::Play { card };
            }
        }
        HeuristicBot.choose(view)
    }
}
