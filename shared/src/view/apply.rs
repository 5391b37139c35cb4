//! How a client's view changes: [`PlayerView::apply`] for an event, [`PlayerView::apply_legal`]
//! for a `your_turn` prompt.
//!
//! This is the one definition of following a game from the messages a viewer receives. The web
//! client and the Python SDK replay fixtures recorded from it (`tests/fixtures/views/`), so they
//! cannot drift from it unnoticed. It reads only the view, the event and the variant's
//! [`VariantFacts`](crate::rules::VariantFacts): never the game, which a client does not have.
//!
//! Where a followed view necessarily differs from a fresh snapshot, and why, is listed in
//! docs/PROTOCOL.md, "Following a view from events"; the tests hold it to that list.

use arrayvec::ArrayVec;

use super::{
    BlindView, BridgeView, CallingView, ClaimView, PassView, PlayedCard, PlayerView, SeatCall,
    Seats, ShownHand, TrickView,
};
use crate::card::{Card, CardSet, Suit};
use crate::rules::{
    Call, CompletedTrick, Event, FirstLead, Legal, PassDirection, Phase, TrumpMade, TrumpRule,
};
use crate::seat::{PerSeat, Seat, SeatSet};

impl PlayerView {
    /// Follows one event the viewer was sent (an `event` message).
    ///
    /// Any event but another seat's pass choice means the game moved on: the last prompt's
    /// `legal` is stale, and the next `your_turn` brings fresh moves.
    pub fn apply(&mut self, event: &Event) {
        let others_pass = matches!(event, Event::PassChosen { seat } if self.seat != Some(*seat));
        if !others_pass {
            self.legal = Legal::Wait;
        }
        match event {
            Event::HandStarted {
                hand,
                dealer,
                pass,
                commitment,
                hand_size,
            } => {
                self.deal_commitment = *commitment;
                self.hand_started(*hand, *dealer, *pass, *hand_size);
            }
            Event::Dealt { seat, cards } => {
                if self.seat == Some(*seat) {
                    self.hand = *cards;
                }
                self.hand_sizes[*seat] = cards.len() as u8;
                self.find_first_leader();
            }
            Event::DealtFaceDown { seats } => {
                if let Some(blind) = &mut self.blind {
                    blind.face_down = seats.iter().copied().collect();
                }
            }
            Event::CardsSeen { seat } => {
                if let Some(blind) = &mut self.blind {
                    blind.face_down.retain(|s| s != seat);
                }
            }
            Event::BlindNil { seat } => {
                if let Some(blind) = &mut self.blind {
                    blind.bid.push(*seat);
                }
            }
            Event::Exchanged { from, to, count } => self.exchanged(*from, *to, *count),
            Event::TrumpShown { trump, cards } => {
                self.trump = Some(*trump);
                self.face_up = *cards;
            }
            Event::TurnedUp { cards } => self.face_up = *cards,
            Event::Called { seat, call } => self.called(*seat, *call),
            Event::TrumpMade {
                trump,
                maker,
                alone,
            } => self.trump_made(*trump, *maker, *alone),
            Event::SitsOut { seat } => {
                if let Some(calling) = &mut self.calling {
                    // Lowest first, as the snapshot lists them.
                    let at = calling.out.partition_point(|s| s < seat);
                    calling.out.insert(at, *seat);
                }
                self.find_first_leader();
            }
            Event::PickedUp { seat, card } => {
                self.face_up.remove(*card);
                self.hand_sizes[*seat] += 1;
                if self.seat == Some(*seat) {
                    self.hand.insert(*card);
                }
                if let Some(calling) = &mut self.calling {
                    calling.picked_up = Some(*card);
                }
                self.phase = Phase::Discarding;
                self.to_act = Seats::from_iter([*seat]);
                // Nobody leads until the discard: the trick waits for the dealer's left, as
                // while the calls were made.
                self.trick.leader = self.dealer.next(self.players);
            }
            Event::Discarded { seat } => {
                self.hand_sizes[*seat] = self.hand_sizes[*seat].saturating_sub(1);
                self.phase = Phase::Playing;
                self.find_first_leader();
            }
            Event::DiscardedCard { seat, card } => {
                if self.seat == Some(*seat) {
                    self.hand.remove(*card);
                    if let Some(calling) = &mut self.calling {
                        calling.discarded = Some(*card);
                    }
                }
            }
            Event::ThrownIn => self.to_act.clear(),
            Event::Board {
                board,
                vulnerability,
            } => {
                self.bridge = Some(BridgeView {
                    board: *board,
                    vulnerability: *vulnerability,
                    contract: None,
                    dummy: None,
                    claim: None,
                    claims_rejected: 0,
                });
            }
            Event::Contract { contract } => {
                if let Some(bridge) = &mut self.bridge {
                    bridge.contract = Some(*contract);
                }
                self.trump = contract.bid.strain().trump();
                self.calls_done();
            }
            Event::DummyShown { seat, cards } => {
                if let Some(bridge) = &mut self.bridge {
                    bridge.dummy = Some(ShownHand {
                        seat: *seat,
                        cards: *cards,
                    });
                }
            }
            Event::Claimed {
                seat,
                tricks,
                cards,
            } => self.claimed(*seat, *tricks, *cards),
            Event::ClaimAnswered { seat, accept } => self.claim_answered(*seat, *accept),
            Event::PassChosen { seat } => self.pass_chosen(*seat),
            Event::CardsPassed { from, to, cards } => self.cards_passed(*from, *to, *cards),
            Event::Bid { seat, tricks } => self.bid(*seat, *tricks),
            Event::Played { seat, card } => self.played(*seat, *card),
            Event::TrickWon { winner, .. } => self.trick_won(*winner),
            Event::BadCard { seat, penalty, .. } => {
                self.totals[*seat] += penalty;
                self.to_act.clear();
            }
            Event::HandScored(result) => {
                let prize = self.variant.facts().prize;
                for seat in Seat::all(self.players) {
                    self.negatives[seat] += result.penalties[seat];
                }
                self.totals = result.totals;
                if prize != 0 {
                    self.pool = result.pool_carried + prize;
                }
                std::sync::Arc::make_mut(&mut self.history).push(result.clone());
                self.tricks_won = result.tricks;
                self.to_act.clear();
            }
            Event::MatchOver { winners, totals } => {
                self.phase = Phase::MatchOver;
                if let Some(bridge) = &mut self.bridge {
                    bridge.dummy = None;
                }
                self.winners = winners.iter().copied().collect();
                self.totals = *totals;
                self.to_act.clear();
            }
        }
    }

    /// Takes the `legal` of a `your_turn` prompt: what the viewer may do now.
    pub fn apply_legal(&mut self, legal: Legal) {
        self.legal = legal;
        if let (Legal::Play { cards }, Some(me)) = (legal, self.seat) {
            // Asked to play: it is this seat's turn (or, for declarer, dummy's: the cards
            // asked for are dummy's), and if the trick is empty that seat leads.
            self.to_act = Seats::from_iter([me]);
            let dummy = self.bridge.as_ref().and_then(|b| b.dummy);
            let from = match dummy {
                Some(d) if d.seat != me && !cards.is_empty() && (cards - d.cards).is_empty() => {
                    d.seat
                }
                _ => me,
            };
            if self.trick.plays.is_empty() {
                self.trick.leader = from;
            }
        }
    }

    /// A new hand: everything of the last one is cleared; hand 0 starts a new match. Every
    /// seat is dealt `hand_size` cards, or the variant's hand size when the event has none.
    fn hand_started(
        &mut self,
        hand: u32,
        dealer: Seat,
        pass: Option<PassDirection>,
        hand_size: Option<u32>,
    ) {
        let n = self.players;
        let facts = self.variant.facts();
        if hand == 0 {
            self.history = std::sync::Arc::default();
            self.totals = PerSeat::new(n);
            self.negatives = PerSeat::new(n);
            self.winners.clear();
            if facts.prize != 0 {
                self.pool = facts.prize;
            }
        }
        self.hand_number = hand;
        self.dealer = dealer;
        self.hand = CardSet::EMPTY;
        self.hand_sizes = PerSeat::new(n);
        for seat in Seat::all(n) {
            self.hand_sizes[seat] = hand_size.unwrap_or(facts.hand_size) as u8;
        }
        self.bids = facts.bidding.then(|| PerSeat::new(n));
        self.trump = None;
        self.face_up = CardSet::EMPTY;
        self.trick = TrickView {
            leader: dealer.next(n),
            plays: ArrayVec::new(),
        };
        self.tricks.clear();
        self.tricks_won = PerSeat::new(n);
        self.hearts_broken = false;
        self.blind = (self.options.blind_nil == Some(true)).then(BlindView::default);
        let calls = matches!(facts.trump, TrumpRule::Called | TrumpRule::Contract);
        self.calling = calls.then(CallingView::default);
        self.bridge = None;
        self.pass = pass.map(|direction| PassView {
            direction,
            given: CardSet::EMPTY,
            received: CardSet::EMPTY,
            waiting: Seat::all(n).collect(),
        });
        if pass.is_some() {
            self.phase = Phase::Passing;
            self.to_act = Seat::all(n).collect();
        } else if calls {
            self.phase = Phase::Calling;
            // Bridge's auction starts with the dealer, Euchre's calls at the dealer's left.
            let first = if facts.trump == TrumpRule::Contract {
                dealer
            } else {
                dealer.next(n)
            };
            self.trick.leader = first;
            self.to_act = Seats::from_iter([first]);
        } else {
            self.bidding_or_play();
        }
    }

    /// After the deal and any passing: the dealer's left bids first where players bid, else
    /// play starts.
    fn bidding_or_play(&mut self) {
        if self.bids.is_some() {
            self.phase = Phase::Bidding;
            self.to_act = Seats::from_iter([self.dealer.next(self.players)]);
        } else {
            self.phase = Phase::Playing;
            self.find_first_leader();
        }
    }

    /// A seat bid; after the last bid (the dealer's) play starts.
    fn bid(&mut self, seat: Seat, tricks: u8) {
        // A stream with a bid in a variant without bidding (no server sends one) changes nothing.
        let Some(bids) = &mut self.bids else { return };
        bids[seat] = Some(tricks);
        if bids.as_slice().iter().all(Option::is_some) {
            match self.blind.as_ref().and_then(|b| b.bid.first()) {
                Some(bidder) => {
                    self.phase = Phase::Exchanging;
                    self.to_act = Seats::from_iter([bidder.partner()]);
                }
                None => {
                    self.phase = Phase::Playing;
                    self.find_first_leader();
                }
            }
        } else {
            self.to_act = Seats::from_iter([seat.next(self.players)]);
        }
    }

    /// A seat called. Who calls next follows from the call: the next seat while trump is not
    /// made; once it is, the defenders in turn where a defender may defend alone. Trump made
    /// (`trump_made`) or a lone defender ends the calls, and the events that follow say
    /// whether the dealer picks up first (`picked_up`) or who sits out (`sits_out`).
    fn called(&mut self, seat: Seat, call: Call) {
        let n = self.players;
        let Some(calling) = &mut self.calling else {
            return;
        };
        calling.calls.push(SeatCall { seat, call });
        match (call, &mut calling.made) {
            (Call::Pass | Call::Bid(_) | Call::Double | Call::Redouble, None) => {
                self.to_act = Seats::from_iter([seat.next(n)]);
            }
            (Call::Pass, Some(made)) if seat == made.maker.next(n) => {
                self.to_act = Seats::from_iter([seat.partner()]);
            }
            (Call::DefendAlone, Some(made)) => {
                made.defender_alone = Some(seat);
                self.calls_done();
            }
            (Call::Pass, Some(_)) => self.calls_done(),
            _ => {}
        }
    }

    /// Trump is made: the defenders may still defend alone, or play starts.
    fn trump_made(&mut self, trump: Suit, maker: Seat, alone: bool) {
        self.trump = Some(trump);
        let Some(calling) = &mut self.calling else {
            return;
        };
        calling.made = Some(TrumpMade {
            trump,
            maker,
            alone,
            defender_alone: None,
        });
        if self.options.defend_alone == Some(true) {
            self.to_act = Seats::from_iter([maker.next(self.players)]);
        } else {
            self.calls_done();
        }
    }

    /// The calls are over: play starts, unless a `picked_up` that follows starts the
    /// dealer's discard first.
    fn calls_done(&mut self) {
        self.phase = Phase::Playing;
        self.find_first_leader();
    }

    /// A seat chose its pass; the last choice ends the passing phase.
    fn pass_chosen(&mut self, seat: Seat) {
        self.to_act.retain(|s| *s != seat);
        let Some(pass) = &mut self.pass else { return };
        pass.waiting.retain(|s| *s != seat);
        if pass.waiting.is_empty() && self.phase == Phase::Passing {
            // Everyone has chosen: the cards change hands and bidding or play starts.
            self.bidding_or_play();
        }
    }

    /// Cards went to a partner in a blind nil exchange: the bidder gives back next, and
    /// once it has, play starts.
    fn exchanged(&mut self, from: Seat, to: Seat, count: u32) {
        let count = u8::try_from(count).unwrap_or(u8::MAX);
        self.hand_sizes[from] = self.hand_sizes[from].saturating_sub(count);
        self.hand_sizes[to] = self.hand_sizes[to].saturating_add(count);
        let to_bidder = self.blind.as_ref().is_some_and(|b| b.bid.contains(&to));
        if to_bidder {
            self.to_act = Seats::from_iter([to]);
        } else {
            self.phase = Phase::Playing;
            self.find_first_leader();
        }
    }

    /// Cards changed hands (the viewer sees only its own pass and the one it receives, or
    /// its own part of a blind nil exchange).
    fn cards_passed(&mut self, from: Seat, to: Seat, cards: CardSet) {
        if self.seat == Some(from) {
            self.hand -= cards;
            if let Some(pass) = &mut self.pass {
                pass.given = cards;
            }
            if let Some(blind) = &mut self.blind {
                blind.given = cards;
            }
        }
        if self.seat == Some(to) {
            self.hand |= cards;
            if let Some(pass) = &mut self.pass {
                pass.received = cards;
            }
            if let Some(blind) = &mut self.blind {
                blind.received = cards;
            }
        }
        self.find_first_leader();
    }

    fn played(&mut self, seat: Seat, card: Card) {
        let n = self.players;
        if self.trick.plays.is_empty() {
            self.trick.leader = seat;
        }
        // A stream with more plays than seats (no server sends one) leaves the extra out.
        let _ = self.trick.plays.try_push(PlayedCard { seat, card });
        self.hand_sizes[seat] = self.hand_sizes[seat].saturating_sub(1);
        if self.seat == Some(seat) {
            self.hand.remove(card);
        }
        // The whist dealer's trump card is face up only until it is played.
        self.face_up.remove(card);
        self.hearts_broken |= card.suit() == Suit::Hearts;
        self.phase = Phase::Playing;
        if let Some(shown) = self.bridge.as_mut().and_then(|b| b.dummy.as_mut()) {
            shown.cards.remove(card);
        }
        let out = self.sitting_out();
        self.to_act = if self.trick.plays.len() < usize::from(n) - out.len() {
            Seats::from_iter([self.player_of(out.next_outside(seat, n))])
        } else {
            Seats::new()
        };
    }

    /// The seat that acts for `seat`'s cards: declarer for Bridge's dummy.
    fn player_of(&self, seat: Seat) -> Seat {
        match self.bridge.as_ref().and_then(|b| b.contract) {
            Some(contract) if contract.dummy() == seat => contract.declarer,
            _ => seat,
        }
    }

    /// Declarer claimed: the defenders answer, lowest seat first.
    fn claimed(&mut self, seat: Seat, tricks: u8, cards: CardSet) {
        let n = self.players;
        let mut defenders = [seat.next(n), seat.partner().next(n)];
        defenders.sort_unstable();
        if let Some(bridge) = &mut self.bridge {
            bridge.claim = Some(ClaimView {
                seat,
                tricks,
                cards,
                accepted: Seats::new(),
            });
        }
        self.to_act = Seats::from_iter(defenders);
    }

    /// A defender answered the claim: a rejection withdraws it and play goes on.
    fn claim_answered(&mut self, seat: Seat, accept: bool) {
        let Some(bridge) = &mut self.bridge else {
            return;
        };
        if accept {
            if let Some(claim) = &mut bridge.claim {
                claim.accepted.push(seat);
                // Both defenders accepted: the claim is settled and the board ends.
                if claim.accepted.len() == 2 {
                    bridge.claim = None;
                }
            }
            self.to_act.retain(|s| *s != seat);
            return;
        }
        bridge.claim = None;
        bridge.claims_rejected = bridge.claims_rejected.saturating_add(1);
        let n = self.players;
        let next = match self.trick.plays.last() {
            Some(last) => last.seat.next(n),
            None => self.trick.leader,
        };
        self.to_act = Seats::from_iter([self.player_of(next)]);
    }

    fn trick_won(&mut self, winner: Seat) {
        let plays = std::mem::take(&mut self.trick.plays);
        // As with plays: a hand holds no more tricks than that.
        let _ = self.tricks.try_push(CompletedTrick {
            leader: self.trick.leader,
            cards: plays.iter().map(|p| p.card).collect(),
            winner,
        });
        self.tricks_won[winner] += 1;
        self.trick.leader = winner;
        // Where a trick is a point the moment it is won, the totals keep count as they go.
        if self.variant.facts().trick_points {
            self.totals[winner] += 1;
        }
        self.to_act = if self.hand_sizes[winner] > 0 {
            Seats::from_iter([self.player_of(winner)])
        } else {
            Seats::new()
        };
    }

    /// Before the first card of a hand: who leads, as far as the viewer can know.
    fn find_first_leader(&mut self) {
        let untouched = self.tricks.is_empty() && self.trick.plays.is_empty();
        if self.phase != Phase::Playing || !untouched {
            return;
        }
        let n = self.players;
        let leader = match self.variant.facts().first_lead {
            FirstLead::DealerLeft => Some(self.sitting_out().next_outside(self.dealer, n)),
            FirstLead::TwoOfClubs => self.two_of_clubs_holder(),
            FirstLead::DeclarersLeft => self
                .bridge
                .as_ref()
                .and_then(|b| b.contract)
                .map(|c| c.opening_leader()),
        };
        self.trick.leader = leader.unwrap_or(self.dealer.next(n));
        self.to_act = leader.into_iter().collect();
    }

    /// The seats sitting this hand out.
    fn sitting_out(&self) -> SeatSet {
        let mut out = SeatSet::EMPTY;
        for seat in self.calling.iter().flat_map(|c| c.out.iter()) {
            out.insert(*seat);
        }
        out
    }

    /// Who holds 2♣, if the viewer can know: itself, or the seat it passed 2♣ to.
    fn two_of_clubs_holder(&self) -> Option<Seat> {
        let me = self.seat?;
        if self.hand.contains(Card::TWO_OF_CLUBS) {
            return Some(me);
        }
        let pass = self.pass.as_ref()?;
        pass.given
            .contains(Card::TWO_OF_CLUBS)
            .then(|| me.left(pass.direction.steps(self.players), self.players))
    }
}
