//! Determinized Monte Carlo: for each sampled deal of the unseen cards that agrees with the
//! view, every legal card is tried and the rest of the hand is played out by a rollout policy
//! through the real engine; the card with the best mean outcome is played. The budget is a
//! number of simulated hands, so the bot is deterministic given its seed (no clock). Bids
//! (spades, ohhell) are searched the same way (`super::strong_bid`).
//!
//! At 4-seat Hearts the deals are played out on [`HeartsDeal`]s instead, and each one is
//! picked from several draws by how well it explains the other seats' play so far
//! (`bots::infer`): the voids a deal must respect say little, while who ducked and who discarded
//! what says where the queen of spades and the long suits are.
//!
//! [`Strategy::choose_until`] may cut the search short: `stop()` is asked before each sampled
//! deal, and the bot decides from the deals it has played out (each one tries every legal
//! card), or plays the heuristic when it has none.

use super::BotRng;
use super::Strategy;
use super::bid_outcome;
use super::heuristic::{self, HeuristicBot};
use super::infer;
use super::random::RandomBot;
use super::sample::Constraints;
use super::sim::Position;
use super::strong_bid;
use super::strong_euchre;
use super::strong_hearts::{self, HeartsDeal};
use super::strong_pass;
use super::table::Table;
use crate::card::{Card, CardSet};
use crate::rules::{Action, Game, HandResult, Legal, Variant};
use crate::seat::{PerSeat, Seat};
use crate::view::PlayerView;

/// Deals drawn per determinization of the Hearts search, one kept by how well it explains
/// the others' play ([`infer`]).
const DRAWS: usize = 4;

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
    rng: BotRng,
    /// Simulated hands per decision (split evenly among the legal cards).
    pub budget: u32,
    /// The rollout policy.
    pub rollout: Rollout,
    /// Suits each seat is known to lack, when the view's finished tricks are not the real
    /// ones (rebuilt from heartless's arguments, which carry no trick order): then nothing
    /// is inferred from those tricks and these voids are used instead.
    known_voids: Option<PerSeat<CardSet>>,
    /// Sampled deals played out for the last decision (0: it played the heuristic's move).
    last_worlds: u32,
}

impl StrongBot {
    /// Default budget: enough to beat the heuristic clearly, cheap enough for the arena.
    pub const DEFAULT_BUDGET: u32 = 400;

    /// Default budget at 4-seat Hearts, where a simulated hand is a bare card-set playout
    /// (several times cheaper than a replay on the engine) and more deals pay off most.
    pub const HEARTS_BUDGET: u32 = 1600;

    /// The budget `strong` uses at `variant` unless one is named (`strong:N`).
    #[must_use]
    pub fn default_budget(variant: Variant) -> u32 {
        if variant == Variant::Hearts {
            Self::HEARTS_BUDGET
        } else {
            Self::DEFAULT_BUDGET
        }
    }

    /// A Monte Carlo bot with its own reproducible stream.
    #[must_use]
    pub fn new(seed: u64, budget: u32, rollout: Rollout) -> Self {
        StrongBot {
            rng: BotRng::new(seed),
            budget,
            rollout,
            known_voids: None,
            last_worlds: 0,
        }
    }

    /// The bot `parlor arena --bots` and `add_bot` name: `strong`, `strong-random`, or either
    /// with `:N` for a budget of `N` simulated hands per decision.
    #[must_use]
    pub fn named(name: &str, variant: Variant, seed: u64) -> Option<StrongBot> {
        let (kind, budget) = match name.split_once(':') {
            Some((kind, n)) => (
                kind,
                n.parse().ok().filter(|b| (1..=1_000_000).contains(b))?,
            ),
            None => (name, Self::default_budget(variant)),
        };
        let rollout = match kind {
            "strong" => Rollout::Heuristic,
            "strong-random" => Rollout::Random,
            _ => return None,
        };
        Some(StrongBot::new(seed, budget, rollout))
    }

    /// Decides from views whose finished tricks are stand-ins (right cards and points, wrong
    /// order and seats): `voids` are the suits each seat is known to lack.
    #[must_use]
    pub fn with_known_voids(mut self, voids: PerSeat<CardSet>) -> Self {
        self.known_voids = Some(voids);
        self
    }

    /// Sampled deals the last decision played out; 0 when it fell back to the heuristic.
    #[must_use]
    pub fn last_worlds(&self) -> u32 {
        self.last_worlds
    }

    /// What the view says about where the unseen cards are, with the known voids in place of
    /// inference from stand-in tricks.
    #[must_use]
    pub fn constraints(&self, view: &PlayerView) -> Option<Constraints> {
        let mut c = Constraints::of(view)?;
        if let Some(voids) = &self.known_voids {
            for seat in Seat::all(view.players) {
                c.voids[seat] = crate::card::Suit::ALL
                    .iter()
                    .filter(|s| voids[seat].has_suit(**s))
                    .map(|s| 1u8 << *s as u8)
                    .sum();
            }
        }
        Some(c)
    }

    /// Whether this view's search runs on [`HeartsDeal`] (4-seat Hearts with heuristic
    /// rollouts) rather than on a replayed [`Game`].
    fn hearts_fast(&self, view: &PlayerView) -> bool {
        view.variant == Variant::Hearts && view.players == 4 && self.rollout == Rollout::Heuristic
    }

    /// The card with the best mean simulated outcome, or `None` if no deal could be rebuilt
    /// (or `stop()` fired before the first one was played out).
    fn search(
        &mut self,
        view: &PlayerView,
        cards: &[Card],
        stop: &dyn Fn() -> bool,
    ) -> Option<Card> {
        let constraints = self.constraints(view)?;
        let me = view.seat?;
        if self.hearts_fast(view) {
            return self.search_hearts(view, cards, &constraints, stop);
        }
        if self.known_voids.is_some() {
            // Stand-in tricks do not replay on the engine.
            return None;
        }
        let worlds = (self.budget as usize / cards.len()).max(4);
        let mut totals = vec![0.0f64; cards.len()];
        let bag_cost = bag_cost(view.variant, &view.options);
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
                let result = play_out(&mut game, hand, self.rollout, &mut random);
                totals[i] += value(view.variant, &result, sim_me, bag_cost);
            }
        }
        self.last_worlds = built as u32;
        if built == 0 {
            return None;
        }
        let best = (0..cards.len()).max_by(|a, b| totals[*a].total_cmp(&totals[*b]))?;
        Some(cards[best])
    }

    /// [`StrongBot::search`] on [`HeartsDeal`]s: no replay, so every sampled deal counts.
    fn search_hearts(
        &mut self,
        view: &PlayerView,
        cards: &[Card],
        constraints: &Constraints,
        stop: &dyn Fn() -> bool,
    ) -> Option<Card> {
        let me = view.seat?;
        let on_table: CardSet = view.trick.plays.iter().map(|p| p.card).collect();
        let gone = view.played_cards() - on_table;
        let legal: CardSet = cards.iter().copied().collect();
        let cards = strong_hearts::distinct_cards(legal, view.hand, gone);
        if cards.len() < 2 {
            // All alike: nothing to search, the heuristic picks among them.
            return None;
        }
        let worlds = (self.budget as usize / cards.len()).max(4);
        let mut totals = vec![0.0f64; cards.len()];
        let mut table = strong_hearts::rollout_table();
        // Inference from the others' play needs the real order of the tricks.
        let plays = if self.known_voids.is_none() {
            infer::plays(view)
        } else {
            Vec::new()
        };
        let draws = if plays.is_empty() { 1 } else { DRAWS };
        let mut built = 0;
        while built < worlds {
            if stop() {
                break;
            }
            let (hands, w) = self.draw(constraints, &plays, me, draws, &mut table);
            let deal = HeartsDeal::from_view(view, &hands)?;
            built += 1;
            if w == 0.0 {
                continue;
            }
            for (i, &card) in cards.iter().enumerate() {
                let mut d = deal.clone();
                d.play(card);
                let points = d.finish(&mut table);
                totals[i] += w * strong_hearts::hearts_value(&points, me);
            }
        }
        self.last_worlds = built as u32;
        if built == 0 {
            return None;
        }
        let best = (0..cards.len()).max_by(|a, b| totals[*a].total_cmp(&totals[*b]))?;
        Some(cards[best])
    }

    /// One determinization for the Hearts search: `draws` sampled deals, one of them kept in
    /// proportion to how well it explains the others' `plays` ([`infer::weight`]), with the
    /// draws' mean weight (sampling-importance-resampling, so a deal's playouts count as much
    /// as the evidence for it). With no plays to explain, one deal of weight 1.
    fn draw(
        &mut self,
        constraints: &Constraints,
        plays: &[(Seat, Card)],
        me: Seat,
        draws: usize,
        table: &mut Table,
    ) -> (PerSeat<CardSet>, f64) {
        if plays.is_empty() {
            return (constraints.sample(&mut self.rng), 1.0);
        }
        let mut kept = None;
        let mut sum = 0.0;
        for _ in 0..draws {
            let hands = constraints.sample(&mut self.rng);
            let w = infer::weight(&hands, plays, me, table);
            sum += w;
            // Keep this deal with probability w / sum (reservoir sampling by weight).
            let roll = f64::from(self.rng.below(1 << 30)) / f64::from(1u32 << 30);
            if kept.is_none() || (sum > 0.0 && roll * sum < w) {
                kept = Some(hands);
            }
        }
        let hands = kept.expect("at least one draw");
        (hands, sum / draws as f64)
    }
}

/// Plays the hand numbered `hand` to its end with the `rollout` policy (every bid made);
/// returns its score line.
pub(super) fn play_out(
    game: &mut Game,
    hand: u32,
    rollout: Rollout,
    random: &mut RandomBot,
) -> HandResult {
    let mut events = Vec::with_capacity(16);
    while !game.is_over() && game.hand_number() == hand {
        let seat = game.next_to_play();
        let card = match rollout {
            Rollout::Heuristic => heuristic::play(&Table::from_game(game, seat)),
            Rollout::Random => random.pick(game.legal_plays(seat)).expect("a legal card"),
        };
        events.clear();
        game.apply_into(seat, &Action::Play { card }, &mut events)
            .expect("rollout plays are legal");
    }
    game.history().last().cloned().expect("a finished hand")
}

/// What a bag costs a Spades side in the long run under `options`: its share of the penalty
/// that every `bag_limit` bags bring (0 when bags cost nothing, and in the other variants).
pub(super) fn bag_cost(variant: Variant, options: &crate::rules::Options) -> f64 {
    match crate::rules::Rules::new(variant, options) {
        Ok(rules) if variant == Variant::Spades && rules.bag_limit > 0 => {
            f64::from(rules.bag_penalty) / f64::from(rules.bag_limit)
        }
        _ => 0.0,
    }
}

/// How good a finished hand is for `me` (higher is better), in the variant's own terms and
/// relative to the other seats. In Spades each bag is charged `bag_cost` as it is taken (a
/// simulated hand starts with no bags, so its own penalties are left out).
pub(super) fn value(variant: Variant, r: &HandResult, me: Seat, bag_cost: f64) -> f64 {
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
        // The side's points against the other side's.
        Variant::Spades => {
            let bags = bid_outcome::outcomes(r, true).expect("spades hands have bids");
            let side = |s: Seat| {
                let penalty = r.bag_penalty.map_or(0, |p| p[s]);
                f64::from(r.points[s] - penalty) - bag_cost * f64::from(bags[s].bags)
            };
            side(me) - side(me.next(4))
        }
        Variant::OhHell => {
            let p = |s: Seat| f64::from(r.points[s]);
            p(me) - mean_others(&p)
        }
        Variant::Euchre | Variant::Bridge => f64::from(r.points[me] - r.points[me.next(4)]),
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
        self.last_worlds = 0;
        if view.variant == Variant::Bridge {
            let seed = self.rng.next_u64();
            if let Some(action) = super::bridge::strong(view, seed, stop) {
                return action;
            }
        }
        if view.variant == Variant::Euchre
            && let Some(action) = strong_euchre::choose(view, self.budget, &mut self.rng, stop)
        {
            return action;
        }
        if let Legal::Pass {
            count: 3,
            direction,
            from,
        } = view.legal
            && self.hearts_fast(view)
            && let Some(me) = view.seat
        {
            let worlds = (self.budget as usize / 8).max(8);
            if let Some(cards) =
                strong_pass::choose(me, from, direction, worlds, &mut self.rng, stop)
            {
                return Action::Pass { cards };
            }
        }
        if let Legal::Bid { .. } = view.legal
            && let Some(tricks) =
                strong_bid::choose(view, self.budget, self.rollout, &mut self.rng, stop)
        {
            return Action::Bid { tricks };
        }
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
