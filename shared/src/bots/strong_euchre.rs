//! Euchre by simulation: every call, discard and card is tried on deals of the unseen cards that
//! agree with the view (who is void in what, the card the dealer picked up), each hand played
//! out to its end by the heuristic, and the choice with the best mean score for the seat's side
//! is made. A hand of five cards plays out in a few dozen steps, so this runs on card sets
//! directly rather than on the engine.

use super::BotRng;
use super::euchre::{self, Trick};
use crate::card::{Card, CardSet, Suit};
use crate::rules::{Action, Call, Legal, TrumpMade, Trumps};
use crate::seat::{PerSeat, Seat, SeatSet};
use crate::view::PlayerView;

/// Fewest deals each choice is tried on.
const MIN_WORLDS: usize = 16;
/// How much better than passing a call must look, in points, to be made.
const CALL_MARGIN: f64 = 0.15;

/// A hand of euchre being played out.
#[derive(Clone, Debug)]
struct Deal {
    hands: PerSeat<CardSet>,
    trumps: Trumps,
    out: SeatSet,
    /// The trick on the table, in order.
    plays: Vec<(Seat, Card)>,
    /// Who leads (or led) the trick on the table.
    leader: Seat,
    tricks: PerSeat<u8>,
}

impl Deal {
    /// The seat to play next.
    fn turn(&self) -> Seat {
        match self.plays.last() {
            Some(&(seat, _)) => self.out.next_outside(seat, 4),
            None => self.leader,
        }
    }

    /// The cards `seat` may play now.
    fn legal(&self, seat: Seat) -> CardSet {
        let hand = self.hands[seat];
        match self.plays.first() {
            Some(&(_, led)) => {
                let follow = hand & self.trumps.suit_cards(led);
                if follow.is_empty() { hand } else { follow }
            }
            None => hand,
        }
    }

    fn play(&mut self, seat: Seat, card: Card) {
        self.hands[seat].remove(card);
        self.plays.push((seat, card));
        if self.plays.len() == 4 - self.out.len() {
            let (winner, _) = self.plays.iter().skip(1).fold(self.plays[0], |w, &(s, c)| {
                if self.trumps.beats(c, w.1) { (s, c) } else { w }
            });
            self.tricks[winner] += 1;
            self.plays.clear();
            self.leader = winner;
        }
    }

    /// Plays every remaining card by the heuristic.
    fn finish(&mut self) {
        while !self.hands[self.turn()].is_empty() {
            let seat = self.turn();
            let card = euchre::play(&Trick {
                trumps: self.trumps,
                me: seat,
                legal: self.legal(seat),
                plays: &self.plays,
            });
            self.play(seat, card);
        }
    }

    /// The hand's points for `me`'s side less the other side's.
    fn value(&self, made: TrumpMade, me: Seat) -> f64 {
        let points = crate::rules::euchre_score(made, &self.tricks);
        f64::from(points[me] - points[me.next(4)])
    }
}

/// The strong bot's Euchre move, or `None` when the view is not one it searches.
pub fn choose(
    view: &PlayerView,
    budget: u32,
    rng: &mut BotRng,
    stop: &dyn Fn() -> bool,
) -> Option<Action> {
    let me = view.seat?;
    match view.legal {
        Legal::Call { .. } => choose_call(view, me, budget, rng, stop).map(Action::Call),
        Legal::Discard { from } => {
            let made = view.calling.as_ref()?.made?;
            let options: Vec<Card> = from.iter().collect();
            let sample = |rng: &mut BotRng| start(view, me, made, rng);
            let best = best_of(options.len(), budget, stop, rng, sample, |i, mut deal| {
                deal.hands[me].remove(options[i]);
                deal.finish();
                deal.value(made, me)
            })?;
            Some(Action::Discard {
                card: options[best],
            })
        }
        Legal::Play { cards } if cards.len() > 1 => {
            let made = view.calling.as_ref()?.made?;
            let options: Vec<Card> = cards.iter().collect();
            let sample = |rng: &mut BotRng| start(view, me, made, rng);
            let best = best_of(options.len(), budget, stop, rng, sample, |i, mut deal| {
                deal.play(me, options[i]);
                deal.finish();
                deal.value(made, me)
            })?;
            Some(Action::Play {
                card: options[best],
            })
        }
        _ => None,
    }
}

/// The call with the best simulated score, passing unless a call beats it by the margin.
fn choose_call(
    view: &PlayerView,
    me: Seat,
    budget: u32,
    rng: &mut BotRng,
    stop: &dyn Fn() -> bool,
) -> Option<Call> {
    let calls = view.legal.calls();
    let mut values = Vec::with_capacity(calls.len());
    let worlds = (budget as usize / calls.len().max(1)).max(MIN_WORLDS);
    for &call in &calls {
        let value = match call {
            Call::Pass if view.trump.is_none() => 0.0,
            _ => {
                let mut total = 0.0;
                let mut played = 0;
                for _ in 0..worlds {
                    if stop() {
                        break;
                    }
                    let Some(mut deal) = after_call(view, me, call, rng) else {
                        continue;
                    };
                    deal.0.finish();
                    total += deal.0.value(deal.1, me);
                    played += 1;
                }
                if played == 0 {
                    return None;
                }
                total / f64::from(played)
            }
        };
        values.push(value);
    }
    let pass = calls.iter().position(|c| *c == Call::Pass);
    let best = (0..calls.len()).max_by(|&a, &b| values[a].total_cmp(&values[b]))?;
    match pass {
        Some(p) if calls[best] != Call::Pass && values[best] < values[p] + CALL_MARGIN => {
            Some(Call::Pass)
        }
        _ => Some(calls[best]),
    }
}

/// A sampled deal as it would stand once `call` is made, and how trump would then be made.
fn after_call(
    view: &PlayerView,
    me: Seat,
    call: Call,
    rng: &mut BotRng,
) -> Option<(Deal, TrumpMade)> {
    let made_before = view.calling.as_ref()?.made;
    let (made, picks_up) = match (call, made_before) {
        (Call::OrderUp { alone }, None) => {
            let turned = view.face_up.lowest()?;
            (made_by(turned.suit(), me, alone), Some(turned))
        }
        (Call::Trump { suit, alone }, None) => (made_by(suit, me, alone), None),
        (Call::DefendAlone, Some(made)) => (
            TrumpMade {
                defender_alone: Some(me),
                ..made
            },
            None,
        ),
        (Call::Pass, Some(made)) => (made, None),
        _ => return None,
    };
    let mut deal = start(view, me, made, rng)?;
    if let Some(turned) = picks_up {
        let dealer = view.dealer;
        if !deal.out.contains(dealer) {
            deal.hands[dealer].insert(turned);
            let worst = euchre::discard_from(deal.hands[dealer], made.trump);
            deal.hands[dealer].remove(worst);
        }
    }
    // Whoever sits out holds no cards in play.
    for seat in deal.out.iter() {
        deal.hands[seat] = CardSet::EMPTY;
    }
    deal.leader = deal.out.next_outside(view.dealer, 4);
    Some((deal, made))
}

fn made_by(trump: Suit, maker: Seat, alone: bool) -> TrumpMade {
    TrumpMade {
        trump,
        maker,
        alone,
        defender_alone: None,
    }
}

/// The hand as the view shows it, the unseen cards dealt at random to the other seats (each
/// as many as it holds, none of a suit it showed out of), the rest to the kitty.
fn start(view: &PlayerView, me: Seat, made: TrumpMade, rng: &mut BotRng) -> Option<Deal> {
    let calling = view.calling.as_ref()?;
    let trumps = Trumps::with_bowers(made.trump);
    let mut out = SeatSet::EMPTY;
    for seat in calling.out.iter() {
        out.insert(*seat);
    }
    if made.alone {
        out.insert(made.maker.partner());
    }
    if let Some(defender) = made.defender_alone {
        out.insert(defender.partner());
    }
    let mut hands = PerSeat::new(4);
    hands[me] = view.hand;
    let mut known = view.hand | view.played_cards() | view.face_up;
    let mut need = view.hand_sizes;
    need[me] = 0;
    // The dealer holds the card they picked up until they play it.
    if let Some(card) = calling.picked_up
        && !view.played_cards().contains(card)
        && view.dealer != me
    {
        hands[view.dealer].insert(card);
        need[view.dealer] = need[view.dealer].saturating_sub(1);
    }
    known |= calling.picked_up.map_or(CardSet::EMPTY, CardSet::single);
    known |= calling.discarded.map_or(CardSet::EMPTY, CardSet::single);
    let voids = voids(view, trumps, &out);
    let pool: Vec<Card> = (view.deck().cards() - known).iter().collect();
    let dealt = deal_pool(&pool, &need, &voids, me, trumps, rng)?;
    for seat in Seat::all(4) {
        hands[seat] |= dealt[seat];
    }
    let plays: Vec<(Seat, Card)> = view.trick.plays.iter().map(|p| (p.seat, p.card)).collect();
    Some(Deal {
        hands,
        trumps,
        out,
        leader: view.trick.leader,
        plays,
        tricks: view.tricks_won,
    })
}

/// The suits each seat has shown out of: it did not follow a trick led in them.
fn voids(view: &PlayerView, trumps: Trumps, out: &SeatSet) -> PerSeat<u8> {
    let mut voids = PerSeat::new(4);
    let mut note = |plays: &[(Seat, Card)]| {
        if let Some(&(_, led)) = plays.first() {
            let suit = trumps.suit_of(led);
            for &(seat, card) in &plays[1..] {
                if trumps.suit_of(card) != suit {
                    voids[seat] |= 1u8 << suit as u8;
                }
            }
        }
    };
    for trick in &view.tricks {
        let mut seat = trick.leader;
        let plays: Vec<(Seat, Card)> = trick
            .cards
            .iter()
            .map(|&card| {
                let played = seat;
                seat = out.next_outside(seat, 4);
                (played, card)
            })
            .collect();
        note(&plays);
    }
    let on_table: Vec<(Seat, Card)> = view.trick.plays.iter().map(|p| (p.seat, p.card)).collect();
    note(&on_table);
    voids
}

/// `pool` dealt at random: `need[s]` cards to each seat, none of a suit it is void in. A few
/// tries, then the voids are let go rather than fail.
fn deal_pool(
    pool: &[Card],
    need: &PerSeat<u8>,
    voids: &PerSeat<u8>,
    me: Seat,
    trumps: Trumps,
    rng: &mut BotRng,
) -> Option<PerSeat<CardSet>> {
    for attempt in 0..40 {
        let mut cards = pool.to_vec();
        for i in (1..cards.len()).rev() {
            let j = rng.below(i as u32 + 1) as usize;
            cards.swap(i, j);
        }
        let mut hands = PerSeat::new(4);
        let mut ok = true;
        for seat in Seat::all(4).filter(|s| *s != me) {
            for _ in 0..need[seat] {
                let fits = |c: &Card| {
                    attempt >= 30 || voids[seat] & (1u8 << trumps.suit_of(*c) as u8) == 0
                };
                match cards.iter().position(fits) {
                    Some(i) => {
                        hands[seat] |= CardSet::single(cards.swap_remove(i));
                    }
                    None => ok = false,
                }
            }
        }
        if ok {
            return Some(hands);
        }
    }
    None
}

/// The index of the choice with the best mean value: each sampled deal is tried with every
/// choice, so the choices are compared on the same deals.
fn best_of(
    choices: usize,
    budget: u32,
    stop: &dyn Fn() -> bool,
    rng: &mut BotRng,
    mut sample: impl FnMut(&mut BotRng) -> Option<Deal>,
    value: impl Fn(usize, Deal) -> f64,
) -> Option<usize> {
    let worlds = (budget as usize / choices.max(1)).max(MIN_WORLDS);
    let mut totals = vec![0.0; choices];
    let mut played = 0;
    for _ in 0..worlds {
        if stop() {
            break;
        }
        let deal = sample(rng)?;
        for (i, total) in totals.iter_mut().enumerate() {
            *total += value(i, deal.clone());
        }
        played += 1;
    }
    if played == 0 {
        return None;
    }
    (0..choices).max_by(|&a, &b| totals[a].total_cmp(&totals[b]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::RandomBot;
    use crate::rules::{Game, Options, Phase, Variant};

    /// Every sampled deal gives each seat the cards it holds, none of a suit it showed out of,
    /// the dealer the card it picked up, and no card anyone has seen elsewhere; and the real
    /// deal itself agrees with the voids the sampler reads from the tricks.
    #[test]
    fn sampled_deals_agree_with_the_view() {
        let mut rng = BotRng::new(3);
        let mut checked = 0;
        for seed in 0..60 {
            let options = Options {
                defend_alone: Some(seed % 2 == 0),
                ..Options::default()
            };
            let mut game = Game::new(Variant::Euchre, &options, seed).unwrap();
            let mut random = RandomBot::new(seed);
            for _ in 0..rng.below(12) {
                let seat = game.to_act().first().unwrap();
                let action = random.choose_legal(&game.legal_actions(seat)).unwrap();
                game.apply(seat, &action).unwrap();
            }
            if game.phase() != Phase::Playing {
                continue;
            }
            let me = game.next_to_play();
            let view = game.view(Some(me));
            let made = view.calling.as_ref().unwrap().made.unwrap();
            let trumps = Trumps::with_bowers(made.trump);
            let out = game.sitting_out();
            let voids = voids(&view, trumps, &out);
            for seat in Seat::all(4) {
                for suit in Suit::ALL {
                    if voids[seat] & (1 << suit as u8) != 0 {
                        assert!((game.hand(seat) & trumps.cards_of(suit)).is_empty());
                    }
                }
            }
            for _ in 0..5 {
                let deal = start(&view, me, made, &mut rng).unwrap();
                assert_eq!(deal.hands[me], view.hand);
                let mut all = CardSet::EMPTY;
                for seat in Seat::all(4) {
                    assert_eq!(deal.hands[seat].len() as u8, view.hand_sizes[seat]);
                    assert!((all & deal.hands[seat]).is_empty());
                    all |= deal.hands[seat];
                }
                assert!((all & view.played_cards()).is_empty());
                // The others take it the dealer kept the trump they picked up.
                if let Some(card) = view.calling.as_ref().unwrap().picked_up
                    && !view.played_cards().contains(card)
                    && me != view.dealer
                {
                    assert!(deal.hands[view.dealer].contains(card));
                }
                checked += 1;
            }
        }
        assert!(checked >= 50, "{checked} deals checked");
    }
}
