//! The heuristic Bridge bot's bidding: a small natural system in the spirit of Standard
//! American, written so that people at the table can read the bot's calls (the plain-words
//! version is in docs/BOTS.md, "Bridge: the heuristic bot's bidding").
//!
//! Two halves share one set of rules. `read_shown` replays the auction and notes what each
//! seat's calls promised (a point range, suit lengths, an invitation); [`natural_call`] then
//! decides from the hand and what partner promised. The first rounds (opening, response,
//! opener's rebid, overcall, advance) follow fixed tables; after that one placement rule
//! takes over: add partner's promised points to ours, pick the strain with the best fit,
//! and bid game at 25, slam at 33, invite when game depends on partner's range, else stop.
//! Every bid is higher than the last, so an auction always ends; levels are capped by the
//! side's points, so it ends low with weak hands.

use super::bridge_seen::BridgeSeen;
use crate::bridge::{Auction, Bid, Call, Strain, same_side};
use crate::card::{CardSet, Rank, Suit};
use crate::seat::Seat;

/// Points the side needs for a game (3NT, 4 of a major, and 5 of a minor with more).
const GAME: u8 = 25;
/// Points the side needs for five of a minor rather than 3NT.
const MINOR_GAME: u8 = 29;
/// Points the side needs for a small slam.
const SMALL_SLAM: u8 = 33;
/// Points the side needs for a grand slam.
const GRAND_SLAM: u8 = 37;

/// The call the heuristic bot makes: always one `seen.auction.legal()` allows (pass when the
/// system has nothing better, or when the auction is already over).
#[must_use]
pub fn natural_call(seen: &BridgeSeen) -> Call {
    let Some(legal) = seen.auction.legal() else {
        return Call::Pass;
    };
    let table = Table {
        me: seen.me,
        hand: Hand::new(seen.hand),
        auction: &seen.auction,
        lowest: legal.lowest_bid,
        can_double: legal.double,
        shown: read_shown(&seen.auction),
    };
    let call = table.decide();
    if legal.allows(call) { call } else { Call::Pass }
}

/// The system in a few lines, for a help text or a bot's description.
#[must_use]
pub fn system_summary() -> &'static str {
    "Natural bidding (simplified Standard American). HCP: A4 K3 Q2 J1, plus a point for each \
     card past the fourth in a suit. Open 1 of a suit with 12+ (Rule of 20 with 10-11), \
     five-card majors, better minor; 1NT 15-17 and 2NT 20-21 balanced; 2C 22+; weak twos in \
     D/H/S and three-level preempts with 5-10 HCP. Responses: raises 6-9 / 10-12 / 13+, new \
     suit at the 1 level 6+, at the 2 level 10+, 1NT 6-10, 2NT 11-12, 3NT 13-15; Stayman over \
     1NT. Overcalls 8-16 with a good five-card suit, 1NT overcall 15-18 with a stopper, \
     takeout double 12+ short in their suit. Game with 25 points together, slam with 33; no \
     conventions beyond Stayman; doubles later in the auction are for penalties."
}

/// A hand's measures: high-card points and suit lengths.
#[derive(Clone, Copy, Debug)]
struct Hand {
    cards: CardSet,
    hcp: u8,
    len: [u8; 4],
}

/// A card's high-card points: ace 4, king 3, queen 2, jack 1.
fn card_points(rank: Rank) -> u8 {
    match rank {
        Rank::ACE => 4,
        Rank::KING => 3,
        Rank::QUEEN => 2,
        Rank::JACK => 1,
        _ => 0,
    }
}

impl Hand {
    fn new(cards: CardSet) -> Hand {
        let hcp = cards.iter().map(|c| card_points(c.rank())).sum();
        let len = Suit::ALL.map(|s| cards.of_suit(s).len() as u8);
        Hand { cards, hcp, len }
    }

    fn len_of(&self, suit: Suit) -> u8 {
        self.len[suit as usize]
    }

    /// High-card points plus one for every card past the fourth in a suit.
    fn points(&self) -> u8 {
        self.hcp + self.len.iter().map(|&l| l.saturating_sub(4)).sum::<u8>()
    }

    /// Points as dummy for partner's `trump` suit: short suits count once a fit is known
    /// (void 3, singleton 2, doubleton 1).
    fn support_points(&self, trump: Suit) -> u8 {
        let scale = [3, 2, 1];
        let shortness: u8 = Suit::ALL
            .iter()
            .filter(|&&s| s != trump)
            .map(|&s| scale.get(self.len_of(s) as usize).copied().unwrap_or(0))
            .sum();
        self.hcp + shortness
    }

    /// 4-3-3-3, 4-4-3-2 or 5-3-3-2: no short suit and at most one doubleton.
    fn balanced(&self) -> bool {
        self.len.iter().all(|&l| l >= 2) && self.len.iter().filter(|&&l| l == 2).count() <= 1
    }

    /// The longest suit, the higher-ranking of equals.
    fn longest(&self) -> Suit {
        Suit::ALL
            .into_iter()
            .max_by_key(|&s| (self.len_of(s), s as u8))
            .expect("four suits")
    }

    /// The longest of `suits`, the higher-ranking of equals (`None` when `suits` is empty).
    fn longest_of(&self, suits: impl Iterator<Item = Suit>) -> Option<Suit> {
        suits.max_by_key(|&s| (self.len_of(s), s as u8))
    }

    fn has(&self, rank: Rank, suit: Suit) -> bool {
        self.cards.contains(crate::card::Card::new(rank, suit))
    }

    /// A stopper for no trump: the ace, a guarded king, a queen with two, a jack with three.
    fn stopper(&self, suit: Suit) -> bool {
        let n = self.len_of(suit);
        self.has(Rank::ACE, suit)
            || (self.has(Rank::KING, suit) && n >= 2)
            || (self.has(Rank::QUEEN, suit) && n >= 3)
            || (self.has(Rank::JACK, suit) && n >= 4)
    }

    /// Five or more cards with two of the top five honours, one of them the ace, king or queen.
    fn good_suit(&self, suit: Suit) -> bool {
        let top = [Rank::ACE, Rank::KING, Rank::QUEEN];
        let honours = top.iter().chain(&[Rank::JACK, Rank::TEN]);
        self.len_of(suit) >= 5
            && top.iter().any(|&r| self.has(r, suit))
            && honours.filter(|&&r| self.has(r, suit)).count() >= 2
    }
}

/// What a seat's calls have promised so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shown {
    /// Fewest points the calls promise.
    min: u8,
    /// Most points the calls allow.
    max: u8,
    /// Fewest cards promised in each suit.
    len: [u8; 4],
    /// The last call asked partner to bid game with a maximum.
    invite: bool,
    /// Partner must not stop below game (the strong 2C opening).
    game_forced: bool,
}

impl Default for Shown {
    fn default() -> Shown {
        Shown {
            min: 0,
            max: 37,
            len: [0; 4],
            invite: false,
            game_forced: false,
        }
    }
}

impl Shown {
    /// The middle of the range, rounded up: what an invitation is judged on.
    fn mid(&self) -> u8 {
        (self.min + self.max).div_ceil(2)
    }

    /// Narrows the range to `lo..=hi` (never widening it, never leaving it empty).
    fn narrow(&mut self, lo: u8, hi: u8) {
        self.min = self.min.max(lo);
        self.max = self.max.min(hi).max(self.min);
    }

    /// Replaces the range: a call that redefines the hand (a 2C opener's rebid).
    fn set(&mut self, lo: u8, hi: u8) {
        self.min = lo;
        self.max = hi.max(lo);
        self.game_forced = false;
    }

    fn at_least(&mut self, suit: Suit, n: u8) {
        let l = &mut self.len[suit as usize];
        *l = (*l).max(n);
    }

    fn balanced(&mut self) {
        for suit in Suit::ALL {
            self.at_least(suit, 2);
        }
    }
}

/// Where a seat is in the auction, which decides what its next call means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Nobody has bid yet.
    Open,
    /// Partner opened `opening`; this seat has not called since.
    Respond { opening: Bid },
    /// This seat opened `opening` and partner has made its first call since (`response`).
    OpenerRebid { opening: Bid, response: Call },
    /// The opponents opened; neither this seat nor partner has acted since.
    Overcall,
    /// The opponents opened and partner acted first for the side with `action`.
    Advance { action: Call },
    /// Anything later: the placement rule.
    Later,
}

/// The stage of `seat`, whose turn it is after the calls in `auction`.
fn stage(auction: &Auction, seat: Seat) -> Stage {
    let calls = auction.calls();
    let Some(open_at) = calls.iter().position(|c| matches!(c, Call::Bid(_))) else {
        return Stage::Open;
    };
    let Call::Bid(opening) = calls[open_at] else {
        unreachable!("position found a bid")
    };
    let opener = auction.caller(open_at);
    let calls_after = |who: Seat| {
        calls
            .iter()
            .enumerate()
            .skip(open_at + 1)
            .filter(move |&(i, _)| auction.caller(i) == who)
            .map(|(_, &c)| c)
    };
    let acted = |who: Seat| calls_after(who).find(|&c| c != Call::Pass);
    if opener == seat {
        if calls_after(seat).next().is_some() {
            return Stage::Later;
        }
        let response = calls_after(seat.partner()).next().unwrap_or(Call::Pass);
        return Stage::OpenerRebid { opening, response };
    }
    if opener == seat.partner() {
        return if calls_after(seat).next().is_none() {
            Stage::Respond { opening }
        } else {
            Stage::Later
        };
    }
    match (acted(seat), acted(seat.partner())) {
        (None, None) => Stage::Overcall,
        (None, Some(action)) => Stage::Advance { action },
        _ => Stage::Later,
    }
}

/// The cheapest bid in `strain` above the last bid, if any.
fn cheapest_in(lowest: Option<Bid>, strain: Strain) -> Option<Bid> {
    let low = lowest?;
    let level = if strain >= low.strain() {
        low.level()
    } else {
        low.level() + 1
    };
    Bid::new(level, strain).ok()
}

/// Levels above the cheapest bid in the strain: 0 for a simple bid, 1 for a jump.
fn jump(lowest: Option<Bid>, bid: Bid) -> u8 {
    cheapest_in(lowest, bid.strain()).map_or(0, |c| bid.level().saturating_sub(c.level()))
}

/// The level of game in `strain`.
fn game_level(strain: Strain) -> u8 {
    match strain {
        Strain::NoTrump => 3,
        Strain::Hearts | Strain::Spades => 4,
        Strain::Clubs | Strain::Diamonds => 5,
    }
}

fn is_major(suit: Suit) -> bool {
    matches!(suit, Suit::Hearts | Suit::Spades)
}

/// What every seat's calls have promised, read by replaying the auction.
fn read_shown(auction: &Auction) -> [Shown; 4] {
    let mut shown = [Shown::default(); 4];
    let mut so_far = Auction::new(auction.dealer());
    for &call in auction.calls() {
        let Some(legal) = so_far.legal() else { break };
        let seat = legal.seat;
        let partner = shown[seat.partner().index()];
        let mut mine = shown[seat.index()];
        mine.invite = false;
        let reading = Reading {
            stage: stage(&so_far, seat),
            lowest: legal.lowest_bid,
            partner,
            ours_standing: standing(&so_far).is_some_and(|(s, _)| same_side(s, seat)),
        };
        reading.interpret(call, &mut mine);
        shown[seat.index()] = mine;
        if so_far.call(seat, call).is_err() {
            break;
        }
    }
    shown
}

/// The last bid and its bidder.
fn standing(auction: &Auction) -> Option<(Seat, Bid)> {
    auction
        .calls()
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, c)| match c {
            Call::Bid(b) => Some((auction.caller(i), *b)),
            _ => None,
        })
}

/// The context one earlier call is read in.
struct Reading {
    stage: Stage,
    lowest: Option<Bid>,
    partner: Shown,
    ours_standing: bool,
}

impl Reading {
    /// Notes in `me` what `call` promised, mirroring the decisions below.
    fn interpret(&self, call: Call, me: &mut Shown) {
        match (self.stage, call) {
            (Stage::Open, call) => read_opening(call, me),
            (Stage::Respond { opening }, call) => self.read_response(opening, call, me),
            (Stage::OpenerRebid { opening, response }, call) => {
                self.read_rebid(opening, response, call, me);
            }
            (Stage::Overcall, call) => read_overcall(call, me),
            (Stage::Advance { action }, call) => self.read_advance(action, call, me),
            (Stage::Later, call) => self.read_placement(call, me),
        }
    }

    fn read_response(&self, opening: Bid, call: Call, me: &mut Shown) {
        let Call::Bid(bid) = call else {
            if call == Call::Pass {
                me.narrow(0, if opening.level() == 1 { 5 } else { 7 });
            }
            return;
        };
        match (opening.level(), opening.strain()) {
            (1, Strain::NoTrump) | (2, Strain::NoTrump) => read_nt_response(opening, bid, me),
            (2, Strain::Clubs) => {}
            (1, strain) => {
                let opened = strain.trump().expect("a suit opening");
                match bid.strain() {
                    s if s == strain => {
                        me.at_least(opened, if is_major(opened) { 3 } else { 4 });
                        match bid.level() {
                            2 => me.narrow(6, 9),
                            3 => {
                                me.narrow(10, 12);
                                me.invite = true;
                            }
                            _ => me.narrow(13, 37),
                        }
                    }
                    Strain::NoTrump => match bid.level() {
                        1 => me.narrow(6, 10),
                        2 => {
                            me.narrow(11, 12);
                            me.invite = true;
                        }
                        _ => me.narrow(13, 15),
                    },
                    s => {
                        let suit = s.trump().expect("a suit");
                        match bid.level() {
                            1 => {
                                me.narrow(6, 37);
                                me.at_least(suit, 4);
                            }
                            2 => {
                                me.narrow(10, 37);
                                me.at_least(suit, 4);
                            }
                            _ => {
                                me.narrow(12, 37);
                                me.at_least(suit, 5);
                            }
                        }
                    }
                }
            }
            _ => {
                // Partner preempted: only a game bid says anything.
                if bid.level() >= 3 {
                    me.narrow(16, 37);
                }
            }
        }
    }

    fn read_rebid(&self, opening: Bid, response: Call, call: Call, me: &mut Shown) {
        let Call::Bid(answer) = response else {
            return self.read_placement(call, me);
        };
        match (opening.level(), opening.strain()) {
            (_, Strain::NoTrump) => {
                if answer.level() == 2 && answer.strain() == Strain::Clubs {
                    if let Call::Bid(b) = call
                        && let Some(suit) = b.strain().trump()
                        && is_major(suit)
                    {
                        me.at_least(suit, 4);
                    }
                } else {
                    self.read_placement(call, me);
                }
            }
            (2, Strain::Clubs) => match call {
                Call::Bid(b) if b.strain() == Strain::NoTrump && b.level() == 2 => {
                    me.set(22, 24);
                    me.balanced();
                }
                Call::Bid(b) if b.strain() == Strain::NoTrump => {
                    me.set(25, 27);
                    me.balanced();
                }
                Call::Bid(b) => {
                    if let Some(suit) = b.strain().trump() {
                        me.at_least(suit, 5);
                    }
                }
                _ => {}
            },
            (1, strain) if strain != Strain::NoTrump => {
                let own = strain.trump().expect("a suit opening");
                let raised = answer.strain() == strain;
                let Call::Bid(b) = call else {
                    return self.read_placement(call, me);
                };
                if raised || (b.strain() == Strain::NoTrump && answer.strain() == Strain::NoTrump) {
                    return self.read_placement(call, me);
                }
                let jumped = jump(self.lowest, b);
                if b.strain() == answer.strain() {
                    let suit = b.strain().trump().expect("partner bid a suit");
                    me.at_least(suit, 4);
                    match jumped {
                        0 => me.narrow(12, 15),
                        1 => {
                            me.narrow(16, 18);
                            me.invite = true;
                        }
                        _ => me.narrow(19, 21),
                    }
                } else if b.strain() == strain {
                    me.at_least(own, if jumped == 0 { 5 } else { 6 });
                    match jumped {
                        0 => me.narrow(11, 15),
                        1 => {
                            me.narrow(16, 18);
                            me.invite = true;
                        }
                        _ => me.narrow(19, 21),
                    }
                } else if b.strain() == Strain::NoTrump {
                    me.balanced();
                    if answer.level() >= 2 {
                        if b.level() == 2 {
                            me.narrow(12, 14);
                        } else {
                            me.narrow(18, 19);
                        }
                    } else if b.level() == 1 {
                        me.narrow(12, 14);
                    } else if b.level() == 2 {
                        me.narrow(18, 19);
                        me.invite = true;
                    } else {
                        me.narrow(18, 19);
                    }
                } else if let Some(suit) = b.strain().trump() {
                    me.at_least(suit, 4);
                    if b.level() == 2 && b.strain() > strain {
                        me.narrow(17, 21);
                    }
                }
            }
            _ => {}
        }
    }

    fn read_advance(&self, action: Call, call: Call, me: &mut Shown) {
        let Call::Bid(bid) = call else { return };
        match action {
            Call::Bid(over) if over.strain() == Strain::NoTrump => read_nt_response(over, bid, me),
            Call::Bid(over) if bid.strain() == over.strain() => {
                let suit = bid.strain().trump().expect("an overcall in a suit");
                me.at_least(suit, 3);
                match jump(self.lowest, bid) {
                    0 if bid.level() < game_level(bid.strain()) => me.narrow(6, 10),
                    1 if bid.level() < game_level(bid.strain()) => {
                        me.narrow(11, 12);
                        me.invite = true;
                    }
                    _ => me.narrow(13, 37),
                }
            }
            Call::Bid(_) if bid.strain() == Strain::NoTrump => match bid.level() {
                1 => me.narrow(8, 11),
                2 => {
                    me.narrow(12, 14);
                    me.invite = true;
                }
                _ => me.narrow(15, 37),
            },
            Call::Bid(_) => {
                if let Some(suit) = bid.strain().trump() {
                    me.at_least(suit, 6);
                    me.narrow(8, 37);
                }
            }
            Call::Double => {
                if bid.strain() == Strain::NoTrump {
                    me.narrow(if bid.level() >= 3 { 12 } else { 6 }, 37);
                    return;
                }
                let suit = bid.strain().trump().expect("a suit");
                me.at_least(suit, 4);
                if bid.level() >= game_level(bid.strain()) {
                    me.narrow(12, 37);
                } else if jump(self.lowest, bid) >= 1 {
                    me.narrow(9, 11);
                    me.invite = true;
                } else {
                    me.narrow(0, 8);
                }
            }
            _ => {}
        }
    }

    /// The placement rule's calls: a game or slam bid promises what it took, an invitation
    /// a range, a pass after an invitation a minimum.
    fn read_placement(&self, call: Call, me: &mut Shown) {
        let p = self.partner;
        match call {
            Call::Bid(b) => {
                let game = game_level(b.strain());
                let counted = if p.invite { p.mid() } else { p.min };
                if b.level() >= 7 {
                    me.narrow(GRAND_SLAM.saturating_sub(counted), 37);
                } else if b.level() == 6 {
                    me.narrow(SMALL_SLAM.saturating_sub(counted), 37);
                } else if b.level() >= game {
                    me.narrow(GAME.saturating_sub(counted.max(p.mid())), 37);
                } else if b.level() + 1 == game && self.ours_standing {
                    me.narrow(GAME.saturating_sub(p.max), (GAME - 1).saturating_sub(p.min));
                    me.invite = true;
                }
                if let Some(suit) = b.strain().trump() {
                    let promised = 8u8.saturating_sub(p.len[suit as usize]).clamp(3, 6);
                    me.at_least(suit, promised);
                }
            }
            Call::Pass if p.invite && self.ours_standing => {
                me.narrow(0, (GAME - 1).saturating_sub(p.mid()));
            }
            _ => {}
        }
    }
}

fn read_opening(call: Call, me: &mut Shown) {
    let Call::Bid(bid) = call else {
        if call == Call::Pass {
            me.narrow(0, 11);
        }
        return;
    };
    match (bid.level(), bid.strain()) {
        (1, Strain::NoTrump) => {
            me.narrow(15, 17);
            me.balanced();
        }
        (2, Strain::NoTrump) => {
            me.narrow(20, 21);
            me.balanced();
        }
        // The strong opening: partner is not to stop below game.
        (2, Strain::Clubs) => {
            me.narrow(22, 37);
            me.game_forced = true;
        }
        (1, s) => {
            let suit = s.trump().expect("a suit");
            me.narrow(10, 21);
            me.at_least(suit, if is_major(suit) { 5 } else { 3 });
        }
        (level, s) => {
            if let Some(suit) = s.trump() {
                me.narrow(5, 10);
                me.at_least(suit, level + 4);
            }
        }
    }
}

fn read_nt_response(opening: Bid, bid: Bid, me: &mut Shown) {
    let low: u8 = if opening.level() == 1 { 15 } else { 20 };
    let game_from = GAME - low;
    match (bid.level(), bid.strain()) {
        (2, Strain::Clubs) if opening.level() == 1 => me.narrow(8, 37),
        (6 | 7, _) => me.narrow(SMALL_SLAM - low, 37),
        (_, Strain::NoTrump) if bid.level() == opening.level() + 1 => {
            me.narrow(GAME - low - 2, GAME - low - 1);
            me.invite = true;
        }
        (_, Strain::NoTrump) => me.narrow(game_from, SMALL_SLAM - low - 1),
        (level, s) => {
            let suit = s.trump().expect("a suit");
            if level == 2 && opening.level() == 1 {
                me.at_least(suit, 5);
                me.narrow(0, game_from - 1);
            } else if level == 3 {
                me.at_least(suit, 5);
                me.narrow(game_from, 37);
            } else {
                me.at_least(suit, 6);
                me.narrow(game_from, 37);
            }
        }
    }
}

fn read_overcall(call: Call, me: &mut Shown) {
    match call {
        Call::Double => me.narrow(12, 37),
        Call::Bid(b) if b.strain() == Strain::NoTrump => {
            me.narrow(15, 18);
            me.balanced();
        }
        Call::Bid(b) => {
            let suit = b.strain().trump().expect("a suit");
            match b.level() {
                1 => me.narrow(8, 16),
                2 => me.narrow(10, 16),
                _ => me.narrow(12, 16),
            }
            me.at_least(suit, if b.level() >= 3 { 6 } else { 5 });
        }
        _ => {}
    }
}

/// One decision: the seat on turn, its hand and what everyone has shown.
struct Table<'a> {
    me: Seat,
    hand: Hand,
    auction: &'a Auction,
    lowest: Option<Bid>,
    can_double: bool,
    shown: [Shown; 4],
}

impl Table<'_> {
    fn decide(&self) -> Call {
        match stage(self.auction, self.me) {
            Stage::Open => self.open(),
            Stage::Respond { opening } => self.respond(opening),
            Stage::OpenerRebid { opening, response } => self.rebid(opening, response),
            Stage::Overcall => self.overcall(),
            Stage::Advance { action } => self.advance(action),
            Stage::Later => self.place(),
        }
    }

    fn partner(&self) -> Shown {
        self.shown[self.me.partner().index()]
    }

    fn cheapest(&self, strain: Strain) -> Option<Bid> {
        cheapest_in(self.lowest, strain)
    }

    /// The bid of `level` in `strain`, if it is allowed now.
    fn bid(&self, level: u8, strain: Strain) -> Option<Call> {
        let bid = Bid::new(level, strain).ok()?;
        self.lowest
            .is_some_and(|low| bid >= low)
            .then_some(Call::Bid(bid))
    }

    /// The cheapest bid in `strain`, if its level is at most `max_level`.
    fn bid_up_to(&self, strain: Strain, max_level: u8) -> Option<Call> {
        self.cheapest(strain)
            .filter(|b| b.level() <= max_level)
            .map(Call::Bid)
    }

    /// The cheapest bid in `strain` raised by `jump` levels, if at most `max_level`.
    fn jump_bid(&self, strain: Strain, jump: u8, max_level: u8) -> Option<Call> {
        let level = self.cheapest(strain)?.level() + jump;
        if level > max_level {
            return None;
        }
        self.bid(level, strain)
    }

    fn standing(&self) -> Option<(Seat, Bid)> {
        standing(self.auction)
    }

    fn ours_standing(&self) -> bool {
        self.standing().is_some_and(|(s, _)| same_side(s, self.me))
    }

    /// Suits the opponents have bid.
    fn their_suits(&self) -> Vec<Suit> {
        let mut suits = Vec::new();
        for (i, call) in self.auction.calls().iter().enumerate() {
            if let Call::Bid(b) = call
                && !same_side(self.auction.caller(i), self.me)
                && let Some(s) = b.strain().trump()
                && !suits.contains(&s)
            {
                suits.push(s);
            }
        }
        suits
    }

    /// True when every suit the opponents bid is stopped.
    fn their_suits_stopped(&self) -> bool {
        self.their_suits().iter().all(|&s| self.hand.stopper(s))
    }

    // ---- Openings ----

    fn open(&self) -> Call {
        let h = &self.hand;
        if h.hcp >= 22 {
            return Call::bid(2, Strain::Clubs);
        }
        if h.balanced() && (20..=21).contains(&h.hcp) {
            return Call::bid(2, Strain::NoTrump);
        }
        if h.balanced() && (15..=17).contains(&h.hcp) {
            return Call::bid(1, Strain::NoTrump);
        }
        let mut lengths = h.len;
        lengths.sort_unstable();
        let rule_of_20 = h.hcp + lengths[3] + lengths[2] >= 20;
        if h.hcp >= 12 || (h.hcp >= 10 && rule_of_20) {
            return Call::bid(1, Strain::from_suit(opening_suit(h)));
        }
        if (5..=10).contains(&h.hcp) {
            let long = h.longest();
            if h.len_of(long) >= 7 && h.good_suit(long) {
                return Call::bid(3, Strain::from_suit(long));
            }
            if h.len_of(long) == 6 && long != Suit::Clubs && h.good_suit(long) {
                return Call::bid(2, Strain::from_suit(long));
            }
        }
        Call::Pass
    }

    // ---- Responses ----

    fn respond(&self, opening: Bid) -> Call {
        match (opening.level(), opening.strain()) {
            (1, Strain::NoTrump) => {
                let clean = self.lowest == opening.next();
                self.answer_nt(15, 17, 1, clean)
            }
            (2, Strain::NoTrump) => self.answer_nt(20, 21, 2, false),
            (2, Strain::Clubs) => self.bid(2, Strain::Diamonds).unwrap_or(Call::Pass),
            (1, strain) => self.respond_to_suit(strain.trump().expect("a suit")),
            (_, strain) => self.respond_to_preempt(strain),
        }
    }

    fn respond_to_suit(&self, opened: Suit) -> Call {
        let h = &self.hand;
        let strain = Strain::from_suit(opened);
        if h.points() < 6 {
            return Call::Pass;
        }
        let support = h.len_of(opened);
        let sp = h.support_points(opened);
        if is_major(opened) && support >= 3 {
            let level = match sp {
                0..=9 => 2,
                10..=12 => 3,
                13..=20 => 4,
                _ => 6,
            };
            if let Some(call) = self.bid(level, strain) {
                return call;
            }
            if sp >= 8 {
                return self.bid_up_to(strain, 3).unwrap_or(Call::Pass);
            }
        }
        // A new suit at the one level: a four-card major first (hearts with both), else the
        // longest suit above partner's.
        let majors = [Suit::Hearts, Suit::Spades]
            .into_iter()
            .filter(|&s| s > opened && h.len_of(s) >= 4);
        let one_level = h
            .longest_of(majors)
            .or_else(|| {
                h.longest_of(
                    Suit::ALL
                        .into_iter()
                        .filter(|&s| s > opened && !is_major(s) && h.len_of(s) >= 4),
                )
            })
            .and_then(|s| self.bid(1, Strain::from_suit(s)));
        if let Some(call) = one_level {
            let both_four = h.len_of(Suit::Hearts) >= 4 && h.len_of(Suit::Spades) >= 4;
            let hearts_first = both_four && h.len_of(Suit::Spades) <= h.len_of(Suit::Hearts);
            if hearts_first && let Some(hearts) = self.bid(1, Strain::Hearts) {
                return hearts;
            }
            return call;
        }
        let minor_fit = if opened == Suit::Diamonds { 4 } else { 5 };
        if !is_major(opened) && support >= minor_fit {
            let level = match sp {
                0..=9 => 2,
                10..=12 => 3,
                _ => 0,
            };
            if level > 0
                && let Some(call) = self.bid(level, strain)
            {
                return call;
            }
        }
        let stopped = self.their_suits_stopped();
        if h.balanced() && stopped && (11..=15).contains(&h.hcp) {
            let level = if h.hcp <= 12 { 2 } else { 3 };
            if let Some(call) = self.bid(level, Strain::NoTrump) {
                return call;
            }
        }
        // A new suit at the two level: 10+ and four cards (five once they have bid).
        if h.points() >= 10 {
            let need = if self.lowest == Bid::new(1, strain).ok().and_then(Bid::next) {
                4
            } else {
                5
            };
            let candidates = Suit::ALL.into_iter().filter(|&s| {
                s != opened && h.len_of(s) >= need && !self.their_suits().contains(&s)
            });
            if let Some(suit) = h.longest_of(candidates) {
                let max = if h.points() >= 12 { 3 } else { 2 };
                if let Some(call) = self.bid_up_to(Strain::from_suit(suit), max) {
                    return call;
                }
            }
        }
        if h.hcp >= 13 && stopped {
            return self.bid(3, Strain::NoTrump).unwrap_or(Call::Pass);
        }
        if h.hcp >= 11 && stopped {
            return self.bid(2, Strain::NoTrump).unwrap_or(Call::Pass);
        }
        if (is_major(opened) && support >= 3) || support >= minor_fit {
            return self.bid_up_to(strain, 2).unwrap_or(Call::Pass);
        }
        self.bid_up_to(Strain::NoTrump, 1).unwrap_or(Call::Pass)
    }

    /// Answers partner's no trump (an opening of 1NT or 2NT, or a 1NT overcall) of `lo..=hi`
    /// at `level`; `stayman` when 2C is free to ask for a four-card major.
    fn answer_nt(&self, lo: u8, hi: u8, level: u8, stayman: bool) -> Call {
        let h = &self.hand;
        let pts = h.points();
        let long_major = [Suit::Spades, Suit::Hearts]
            .into_iter()
            .find(|&s| h.len_of(s) >= 5);
        if h.hcp + lo >= SMALL_SLAM {
            return self.bid(6, Strain::NoTrump).unwrap_or(Call::Pass);
        }
        if let Some(major) = long_major {
            let strain = Strain::from_suit(major);
            if pts + lo >= GAME {
                let game = if h.len_of(major) >= 6 { 4 } else { 3 };
                if let Some(call) = self.bid(game, strain) {
                    return call;
                }
            } else if pts + hi < GAME && level == 1 {
                return self.bid(2, strain).unwrap_or(Call::Pass);
            }
        }
        let four_major = h.len_of(Suit::Hearts) == 4 || h.len_of(Suit::Spades) == 4;
        if stayman && four_major && h.hcp + lo >= GAME - 2 && h.len.iter().any(|&l| l <= 2) {
            return Call::bid(2, Strain::Clubs);
        }
        if h.hcp + lo >= GAME {
            return self.bid(3, Strain::NoTrump).unwrap_or(Call::Pass);
        }
        if h.hcp + hi >= GAME {
            return self.bid(level + 1, Strain::NoTrump).unwrap_or(Call::Pass);
        }
        if level == 1 && h.len_of(Suit::Diamonds) >= 6 && h.hcp + hi < GAME {
            return self.bid(2, Strain::Diamonds).unwrap_or(Call::Pass);
        }
        Call::Pass
    }

    fn respond_to_preempt(&self, strain: Strain) -> Call {
        let h = &self.hand;
        if let Some(suit) = strain.trump()
            && is_major(suit)
            && h.len_of(suit) >= 2
            && h.support_points(suit) >= 16
        {
            return self.bid(4, strain).unwrap_or(Call::Pass);
        }
        if h.hcp >= 16 && h.balanced() && self.their_suits_stopped() {
            return self.bid(3, Strain::NoTrump).unwrap_or(Call::Pass);
        }
        Call::Pass
    }

    // ---- Opener's rebid ----

    fn rebid(&self, opening: Bid, response: Call) -> Call {
        match (opening.level(), opening.strain(), response) {
            (_, Strain::NoTrump, Call::Bid(answer)) => self.rebid_after_nt(answer),
            (2, Strain::Clubs, Call::Bid(_)) => self.rebid_after_two_clubs(),
            (1, strain, Call::Bid(answer)) => {
                self.rebid_one_suit(strain.trump().expect("a suit"), answer)
            }
            (1, strain, Call::Pass) if strain != Strain::NoTrump => self.compete_alone(),
            (1, _, _) => self.place(),
            // A preempt has said it all.
            _ => Call::Pass,
        }
    }

    fn rebid_after_nt(&self, answer: Bid) -> Call {
        let h = &self.hand;
        if answer.level() == 2 && answer.strain() == Strain::Clubs {
            let major = [Suit::Hearts, Suit::Spades]
                .into_iter()
                .find(|&s| h.len_of(s) >= 4)
                .map_or(Strain::Diamonds, Strain::from_suit);
            return self.bid(2, major).unwrap_or(Call::Pass);
        }
        if answer.level() == 3
            && let Some(suit) = answer.strain().trump()
            && is_major(suit)
        {
            let strain = if h.len_of(suit) >= 3 {
                answer.strain()
            } else {
                Strain::NoTrump
            };
            return self.bid(game_level(strain), strain).unwrap_or(Call::Pass);
        }
        self.place()
    }

    fn rebid_after_two_clubs(&self) -> Call {
        let h = &self.hand;
        if h.balanced() {
            let level = if h.hcp <= 24 { 2 } else { 3 };
            if let Some(call) = self.bid(level, Strain::NoTrump) {
                return call;
            }
        }
        self.bid_up_to(Strain::from_suit(h.longest()), 4)
            .unwrap_or_else(|| self.place())
    }

    fn rebid_one_suit(&self, own: Suit, answer: Bid) -> Call {
        let h = &self.hand;
        let own_strain = Strain::from_suit(own);
        if answer.strain() == own_strain {
            return self.place();
        }
        let pts = h.points();
        if answer.strain() == Strain::NoTrump {
            if h.balanced() {
                return self.place();
            }
            return self.unbalanced_rebid(own, pts, false);
        }
        let theirs = answer.strain().trump().expect("a suit response");
        let theirs_strain = answer.strain();
        // Four-card support for partner's suit.
        if h.len_of(theirs) >= 4 {
            let sp = h.support_points(theirs);
            let jump = match sp {
                0..=15 => 0,
                16..=18 => 1,
                _ => 2,
            };
            let game = game_level(theirs_strain);
            let call = if jump == 2 && !is_major(theirs) {
                self.bid(3, Strain::NoTrump)
            } else if jump == 2 {
                self.bid(game, theirs_strain)
            } else {
                self.jump_bid(theirs_strain, jump, game - 1)
            };
            if let Some(call) = call {
                return call;
            }
        }
        if h.balanced() {
            let after_two = answer.level() >= 2;
            let (low, high) = if after_two { (2, 3) } else { (1, 2) };
            let level = if h.hcp <= 14 { low } else { high };
            if let Some(call) = self.bid(level, Strain::NoTrump) {
                return call;
            }
        }
        self.unbalanced_rebid(own, pts, true)
    }

    /// A rebid showing shape: the own six-card suit, a second suit, or the own suit again.
    fn unbalanced_rebid(&self, own: Suit, pts: u8, forced: bool) -> Call {
        let h = &self.hand;
        let own_strain = Strain::from_suit(own);
        if h.len_of(own) >= 6 {
            let game = game_level(own_strain);
            let call = match pts {
                0..=15 => self.bid_up_to(own_strain, 3),
                16..=18 => self.jump_bid(own_strain, 1, game - 1),
                _ if is_major(own) => self.bid(game, own_strain),
                _ => self.bid(3, Strain::NoTrump),
            };
            if let Some(call) = call {
                return call;
            }
        }
        let second = h.longest_of(
            Suit::ALL
                .into_iter()
                .filter(|&s| s != own && h.len_of(s) >= 4),
        );
        if let Some(suit) = second {
            let strain = Strain::from_suit(suit);
            if let Some(b) = self.cheapest(strain) {
                let reverse = b.level() == 2 && suit > own;
                let fits = b.level() == 1 || (b.level() == 2 && (!reverse || h.hcp >= 17));
                if fits {
                    return Call::Bid(b);
                }
            }
        }
        if forced || h.len_of(own) >= 6 {
            return self
                .bid_up_to(own_strain, 2)
                .unwrap_or_else(|| self.place());
        }
        self.place()
    }

    /// Opener after partner passed and the opponents bid: a six-card suit competes.
    fn compete_alone(&self) -> Call {
        let h = &self.hand;
        let own = h.longest();
        if h.len_of(own) >= 6 {
            let max = if h.points() >= 16 { 3 } else { 2 };
            if let Some(call) = self.bid_up_to(Strain::from_suit(own), max) {
                return call;
            }
        }
        Call::Pass
    }

    // ---- Competition ----

    fn overcall(&self) -> Call {
        let h = &self.hand;
        let Some((_, theirs)) = self.standing() else {
            return Call::Pass;
        };
        if theirs.strain() == Strain::NoTrump {
            return Call::Pass;
        }
        let their_suits = self.their_suits();
        let stopped = self.their_suits_stopped();
        if theirs.level() == 1 && h.balanced() && (15..=18).contains(&h.hcp) && stopped {
            return Call::bid(1, Strain::NoTrump);
        }
        let short_in_theirs = their_suits.iter().all(|&s| h.len_of(s) <= 2);
        let others_held = Suit::ALL
            .iter()
            .filter(|s| !their_suits.contains(s))
            .all(|&s| h.len_of(s) >= 3);
        let takeout = h.hcp >= 12 && short_in_theirs && others_held;
        if self.can_double && (takeout || (h.hcp >= 17 && theirs.level() <= 2)) {
            return Call::Double;
        }
        let candidates = Suit::ALL
            .into_iter()
            .filter(|s| !their_suits.contains(s) && h.good_suit(*s));
        if let Some(suit) = h.longest_of(candidates)
            && let Some(bid) = self.cheapest(Strain::from_suit(suit))
        {
            let ok = match bid.level() {
                1 => (8..=16).contains(&h.hcp),
                2 => (10..=16).contains(&h.hcp),
                3 => (12..=16).contains(&h.hcp) && h.len_of(suit) >= 6,
                _ => false,
            };
            if ok {
                return Call::Bid(bid);
            }
        }
        Call::Pass
    }

    fn advance(&self, action: Call) -> Call {
        let h = &self.hand;
        match action {
            Call::Bid(over) if over.strain() == Strain::NoTrump && over.level() == 1 => {
                let clean = self.lowest == over.next();
                if clean {
                    self.answer_nt(15, 18, 1, false)
                } else {
                    self.place()
                }
            }
            Call::Bid(over) if over.strain() != Strain::NoTrump => {
                let suit = over.strain().trump().expect("a suit");
                let strain = over.strain();
                if h.len_of(suit) >= 3 {
                    let sp = h.support_points(suit);
                    let game = game_level(strain);
                    let call = match sp {
                        0..=5 => None,
                        6..=10 => self.bid_up_to(strain, if h.len_of(suit) >= 4 { 3 } else { 2 }),
                        11..=12 => self.jump_bid(strain, 1, game - 1),
                        _ if is_major(suit) => self.bid(game, strain),
                        _ if self.their_suits_stopped() => self.bid(3, Strain::NoTrump),
                        _ => self.jump_bid(strain, 1, game - 1),
                    };
                    return call.unwrap_or(Call::Pass);
                }
                if h.balanced() && self.their_suits_stopped() {
                    let level = match h.hcp {
                        0..=7 => 0,
                        8..=11 => 1,
                        12..=14 => 2,
                        _ => 3,
                    };
                    if level > 0
                        && let Some(call) = self.bid(level, Strain::NoTrump)
                    {
                        return call;
                    }
                }
                let own = h.longest();
                if h.hcp >= 8
                    && h.len_of(own) >= 6
                    && !self.their_suits().contains(&own)
                    && let Some(call) = self.bid_up_to(Strain::from_suit(own), 2)
                {
                    return call;
                }
                Call::Pass
            }
            Call::Double => self.answer_takeout_double(),
            _ => self.place(),
        }
    }

    fn answer_takeout_double(&self) -> Call {
        let h = &self.hand;
        let their_suits = self.their_suits();
        // A bid by the next opponent frees us from answering with nothing.
        let doubled_bid_stands = matches!(self.auction.calls().last(), Some(Call::Pass));
        if !doubled_bid_stands && h.hcp < 6 {
            return Call::Pass;
        }
        let unbid = || Suit::ALL.into_iter().filter(|s| !their_suits.contains(s));
        let suit = h
            .longest_of(unbid().filter(|&s| is_major(s) && h.len_of(s) >= 4))
            .or_else(|| h.longest_of(unbid()));
        let Some(suit) = suit else {
            return Call::Pass;
        };
        let strain = Strain::from_suit(suit);
        let nt_ok = h.balanced() && self.their_suits_stopped();
        if h.hcp >= 12 {
            let call = if is_major(suit) && h.len_of(suit) >= 4 {
                self.bid(4, strain)
            } else if nt_ok {
                self.bid(3, Strain::NoTrump)
            } else {
                self.jump_bid(strain, 1, game_level(strain) - 1)
            };
            if let Some(call) = call {
                return call;
            }
        }
        if h.hcp >= 9
            && let Some(call) = self.jump_bid(strain, 1, game_level(strain) - 1)
        {
            return call;
        }
        self.bid_up_to(strain, 3).unwrap_or(Call::Pass)
    }

    // ---- Placement ----

    /// The strain the side should play in, from the fits shown.
    fn best_strain(&self) -> Strain {
        let h = &self.hand;
        let p = self.partner();
        let together = |s: Suit| h.len_of(s) + p.len[s as usize];
        let majors = [Suit::Spades, Suit::Hearts]
            .into_iter()
            .filter(|&s| together(s) >= 8);
        if let Some(suit) = majors.max_by_key(|&s| (together(s), s as u8)) {
            return Strain::from_suit(suit);
        }
        let partner_balanced = p.len.iter().all(|&l| l >= 2);
        if h.balanced() || partner_balanced {
            return Strain::NoTrump;
        }
        let minors = [Suit::Diamonds, Suit::Clubs]
            .into_iter()
            .filter(|&s| together(s) >= 8);
        if let Some(suit) = minors.max_by_key(|&s| (together(s), s as u8)) {
            return Strain::from_suit(suit);
        }
        let own = h.longest();
        if h.len_of(own) >= 6 {
            return Strain::from_suit(own);
        }
        Strain::NoTrump
    }

    /// Points for `strain`: support points when partner has shown three or more trumps.
    fn points_for(&self, strain: Strain) -> u8 {
        let p = self.partner();
        match strain.trump() {
            // The hand with fewer trumps is the one whose short suits ruff.
            Some(suit)
                if p.len[suit as usize] >= 3
                    && (3..=p.len[suit as usize]).contains(&self.hand.len_of(suit)) =>
            {
                self.hand.support_points(suit).max(self.hand.points())
            }
            Some(_) => self.hand.points(),
            None => self.hand.hcp,
        }
    }

    /// Game, slam, an invitation, a competitive bid, or pass, by the side's points.
    fn place(&self) -> Call {
        let p = self.partner();
        let strain = self.best_strain();
        let mine = self.points_for(strain);
        let counted = if p.invite { p.mid() } else { p.min };
        let mut total = mine + counted;
        if p.game_forced || self.shown[self.me.index()].game_forced {
            total = total.max(GAME);
        }
        if let Some(double) = self.penalty_double(total) {
            return double;
        }
        let ours = self.ours_standing();
        // Slams are judged without counting short suits.
        // and only with a known trump fit (or at no trump).
        let fit_known = strain
            .trump()
            .is_none_or(|s| self.hand.len_of(s) + p.len[s as usize] >= 8 && p.len[s as usize] >= 3);
        let slam_total = if fit_known {
            self.hand.points().min(mine) + counted
        } else {
            0
        };
        let goal = if slam_total >= GRAND_SLAM {
            Some((7, strain))
        } else if slam_total >= SMALL_SLAM {
            Some((6, strain))
        } else if total >= GAME {
            if strain.is_minor() && total < MINOR_GAME {
                Some((3, Strain::NoTrump))
            } else {
                Some((game_level(strain), strain))
            }
        } else {
            None
        };
        if let Some((level, strain)) = goal {
            let reached = self.standing().is_some_and(|(s, b)| {
                let enough = if level >= 6 {
                    level
                } else {
                    level.min(game_level(b.strain()))
                };
                same_side(s, self.me) && b.level() >= enough
            });
            if reached {
                return Call::Pass;
            }
            return self.bid(level, strain).unwrap_or(Call::Pass);
        }
        if ours && !p.invite && mine + p.max >= GAME {
            let (level, invite) = match strain.trump() {
                Some(suit) if is_major(suit) => (game_level(strain) - 1, strain),
                _ => (2, Strain::NoTrump),
            };
            if let Some(call) = self.bid(level, invite) {
                return call;
            }
            // No room to invite: judge on the middle of partner's range.
            if mine + p.mid() >= GAME {
                let game = if strain.is_minor() {
                    Strain::NoTrump
                } else {
                    strain
                };
                return self.bid(game_level(game), game).unwrap_or(Call::Pass);
            }
        }
        if ours {
            return self.correct(strain);
        }
        self.compete(strain, total)
    }

    /// With our side holding a part score: move to a six-card suit from no trump.
    fn correct(&self, strain: Strain) -> Call {
        let Some((_, standing)) = self.standing() else {
            return Call::Pass;
        };
        if standing.strain() == Strain::NoTrump
            && let Some(suit) = strain.trump()
            && self.hand.len_of(suit) >= 6
            && self.partner().len[suit as usize] == 0
        {
            return self.bid_up_to(strain, 2).unwrap_or(Call::Pass);
        }
        Call::Pass
    }

    /// The opponents hold the auction: bid on to the level of the side's trumps (eight
    /// trumps, two level; nine, three) when the points are there.
    fn compete(&self, strain: Strain, total: u8) -> Call {
        let Some(suit) = strain.trump() else {
            return Call::Pass;
        };
        let together = self.hand.len_of(suit) + self.partner().len[suit as usize];
        if together < 8 || total < 18 {
            return Call::Pass;
        }
        self.bid_up_to(strain, (together - 6).min(3))
            .unwrap_or(Call::Pass)
    }

    /// Doubles for penalties only when it is plain: the opponents outbid a side with game
    /// values at the four level or higher, or play in a suit where this hand holds five
    /// trumps with two top honours and the side has the balance of points.
    fn penalty_double(&self, total: u8) -> Option<Call> {
        if !self.can_double {
            return None;
        }
        let (_, theirs) = self.standing()?;
        let outbid = theirs.level() >= 4 && total >= GAME;
        let trump_stack = theirs.strain().trump().is_some_and(|s| {
            let top = [Rank::ACE, Rank::KING, Rank::QUEEN]
                .iter()
                .filter(|&&r| self.hand.has(r, s))
                .count();
            self.hand.len_of(s) >= 5 && top >= 2 && theirs.level() >= 2
        });
        (outbid || (trump_stack && total >= 22)).then_some(Call::Double)
    }
}

/// The suit to open at the one level: the longest of five or more (the higher of equals),
/// else the better minor (diamonds with four or more and at least as many as clubs).
fn opening_suit(h: &Hand) -> Suit {
    let long = h.longest();
    if h.len_of(long) >= 5 {
        return long;
    }
    let (c, d) = (h.len_of(Suit::Clubs), h.len_of(Suit::Diamonds));
    if d > c || (d == c && d >= 4) {
        Suit::Diamonds
    } else {
        Suit::Clubs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::BotRng;
    use crate::bridge::{Board, EAST, NORTH, SOUTH, WEST};

    /// What `me` sees on `board` holding `hand` after `calls`.
    fn seen(me: Seat, board: u32, hand: &str, calls: &str) -> BridgeSeen {
        let board = Board(board);
        let calls: Vec<Call> = calls
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        BridgeSeen {
            me,
            board,
            hand: CardSet::parse_compact(hand).unwrap(),
            auction: Auction::from_calls(board.dealer(), &calls).unwrap(),
            play: None,
        }
    }

    /// The call for `hand` (board 1: North deals), as text.
    fn call(me: Seat, hand: &str, calls: &str) -> String {
        let seen = seen(me, 1, hand, calls);
        assert_eq!(seen.auction.next_seat(), Some(me), "{calls}");
        natural_call(&seen).to_string()
    }

    #[test]
    fn openings() {
        // 15 HCP, 3-3-4-3.
        assert_eq!(call(NORTH, "AQ3s KJ4h Q976d K82c", ""), "1NT");
        // 12 HCP with five spades.
        assert_eq!(call(NORTH, "AKJ84s K53h J62d 74c", ""), "1S");
        // 13 HCP, four-four in the minors: the better minor is diamonds.
        assert_eq!(call(NORTH, "A83s K5h KJ62d Q743c", ""), "1D");
        // 13 HCP, three-three in the minors: clubs.
        assert_eq!(call(NORTH, "AQ8s K852h K62d 432c", ""), "1C");
        // 20 HCP balanced.
        assert_eq!(call(NORTH, "AQ3s KQ4h AJ76d KQ2c", ""), "2NT");
        // 23 HCP.
        assert_eq!(call(NORTH, "AKQ3s AK4h AQJ6d 82c", ""), "2C");
        // A weak two: six good hearts, 8 HCP.
        assert_eq!(call(NORTH, "83s KQJ964h 762d Q2c", ""), "2H");
        // Five points: pass.
        assert_eq!(call(NORTH, "Q83s J964h 762d K32c", ""), "P");
    }

    #[test]
    fn responses() {
        // Partner opened 1H: four hearts and 8 points raise to 2H.
        assert_eq!(call(SOUTH, "Q83s K742h J54d Q62c", "1H P"), "2H");
        // Four hearts and 11 points: the limit raise.
        assert_eq!(call(SOUTH, "Q83s K742h A54d Q62c", "1H P"), "3H");
        // Four hearts and 14: game.
        assert_eq!(call(SOUTH, "Q83s K742h A54d AJ2c", "1H P"), "4H");
        // Five points pass.
        assert_eq!(call(SOUTH, "Q83s 742h J654d Q62c", "1H P"), "P");
        // Four spades over 1D: 1S.
        assert_eq!(call(SOUTH, "QJ83s 742h J54d K62c", "1D P"), "1S");
        // 8 balanced without a major fit or a four-card major to show: 1NT.
        assert_eq!(call(SOUTH, "Q8s 743h K654d QJ62c", "1S P"), "1NT");
        // Over 1NT: 10 balanced, no major: 3NT; 8 balanced: 2NT.
        assert_eq!(call(SOUTH, "Q83s K74h K654d Q62c", "1NT P"), "3NT");
        assert_eq!(call(SOUTH, "Q83s K74h J654d Q62c", "1NT P"), "2NT");
        // Four hearts, a doubleton and 10: Stayman, and opener shows hearts.
        assert_eq!(call(SOUTH, "Q8s K742h K654d Q62c", "1NT P"), "2C");
        assert_eq!(call(NORTH, "AJ3s AQ63h Q72d K82c", "1NT P 2C P"), "2H");
        // Weak with six spades over 1NT: sign off in 2S.
        assert_eq!(call(SOUTH, "Q98643s 74h J65d 62c", "1NT P"), "2S");
    }

    #[test]
    fn rebids() {
        // 1H 1S: four spades and 13 points raise once; a balanced 13 rebids 1NT.
        assert_eq!(call(NORTH, "KJ83s AQ742h 54d Q2c", "1H P 1S P"), "2S");
        assert_eq!(call(NORTH, "K83s AQ742h Q54d Q2c", "1H P 1S P"), "1NT");
        // Six hearts, minimum: rebid them.
        assert_eq!(call(NORTH, "K8s AQ7432h Q54d 72c", "1H P 1S P"), "2H");
        // After a simple raise, 19 points bid game; a minimum passes.
        assert_eq!(call(NORTH, "K8s AKQ72h AQ4d 732c", "1H P 2H P"), "4H");
        assert_eq!(call(NORTH, "K8s AQ872h Q54d 732c", "1H P 2H P"), "P");
        // 1NT opener after an invitation: a maximum accepts, a minimum declines.
        assert_eq!(call(NORTH, "AQ3s KJ4h Q976d K82c", "1NT P 2NT P"), "P");
        assert_eq!(call(NORTH, "AQ3s KJ4h Q976d AK2c", "1NT P 2NT P"), "3NT");
    }

    #[test]
    fn competition() {
        // East overcalls 1S over 1H with a good suit and 10.
        assert_eq!(call(EAST, "AQJ84s 53h K62d 742c", "1H"), "1S");
        // 16 balanced with a heart stopper: 1NT.
        assert_eq!(call(EAST, "AQ4s KJ3h K762d Q72c", "1H"), "1NT");
        // 13, short in hearts, three or more in the rest: takeout double.
        assert_eq!(call(EAST, "AQ84s 3h K762d K742c", "1H"), "X");
        // Partner doubled 1H: bid the four-card spade suit.
        assert_eq!(call(WEST, "J842s 763h Q62d 742c", "1H X P"), "1S");
        // 7 points and nothing to say after 1H: pass.
        assert_eq!(call(EAST, "Q842s K63h 962d 742c", "1H"), "P");
    }

    /// A random deal: four hands of 13.
    fn deal(rng: &mut BotRng) -> [CardSet; 4] {
        let deck = rng.shuffled_deck();
        std::array::from_fn(|i| deck[i * 13..(i + 1) * 13].iter().copied().collect())
    }

    /// Four copies of the system bid `hands` on `board`; returns the auction.
    fn bid_out(board: Board, hands: &[CardSet; 4]) -> Auction {
        let mut auction = Auction::new(board.dealer());
        while let Some(legal) = auction.legal() {
            let seat = legal.seat;
            let seen = BridgeSeen {
                me: seat,
                board,
                hand: hands[seat.index()],
                auction: auction.clone(),
                play: None,
            };
            let call = natural_call(&seen);
            assert!(legal.allows(call), "{call} after {:?}", auction.calls());
            auction.call(seat, call).unwrap();
            assert!(auction.calls().len() < 60, "{:?}", auction.calls());
        }
        auction
    }

    #[test]
    fn random_deals_bid_to_sane_contracts() {
        let mut rng = BotRng::new(2024);
        let deals = 3000;
        let (mut game_hands, mut game_reached) = (0, 0);
        let (mut part_hands, mut part_kept_low) = (0, 0);
        let (mut slam_hands, mut slam_reached, mut bad_slams) = (0, 0, 0);
        let (mut passed_out, mut contracts, mut level_sum) = (0, 0, 0u32);
        let mut doubled = 0;
        for seed in 0..deals {
            let hands = deal(&mut rng);
            let board = Board(seed % 16 + 1);
            let auction = bid_out(board, &hands);
            let side_hcp = |seat: Seat| {
                Hand::new(hands[seat.index()]).hcp + Hand::new(hands[seat.partner().index()]).hcp
            };
            let Some(contract) = auction.contract() else {
                passed_out += 1;
                assert!(side_hcp(NORTH) < 26 && side_hcp(EAST) < 26, "{hands:?}");
                continue;
            };
            contracts += 1;
            level_sum += u32::from(contract.bid.level());
            if contract.doubled != crate::bridge::Doubling::Undoubled {
                doubled += 1;
            }
            let game = |c: &crate::bridge::Contract| {
                c.bid.level() >= game_level(c.bid.strain())
                    || (c.bid.strain().is_minor() && c.bid.level() >= 5)
            };
            for seat in [NORTH, EAST] {
                let hcp = side_hcp(seat);
                let theirs = same_side(contract.declarer, seat);
                if hcp >= 26 {
                    game_hands += 1;
                    if theirs && game(&contract) {
                        game_reached += 1;
                    }
                }
                if hcp >= 33 {
                    slam_hands += 1;
                    if theirs && contract.bid.level() >= 6 {
                        slam_reached += 1;
                    }
                }
                if theirs && contract.bid.level() >= 6 && hcp < 29 {
                    bad_slams += 1;
                }
                if (20..=22).contains(&hcp) {
                    part_hands += 1;
                    if !theirs || !game(&contract) {
                        part_kept_low += 1;
                    }
                }
            }
        }
        let rate = |a: i32, b: i32| f64::from(a) / f64::from(b.max(1));
        let game_rate = rate(game_reached, game_hands);
        let low_rate = rate(part_kept_low, part_hands);
        eprintln!(
            "{deals} deals: passed out {passed_out}, average level {:.2}, doubled {doubled}; \
             26+ HCP sides reached game {game_reached}/{game_hands} ({:.0}%); \
             20-22 HCP sides stayed below game {part_kept_low}/{part_hands} ({:.0}%); \
             33+ HCP sides reached slam {slam_reached}/{slam_hands}; slams with under 29 HCP {bad_slams}",
            f64::from(level_sum) / f64::from(contracts),
            game_rate * 100.0,
            low_rate * 100.0,
        );
        assert!(game_rate >= 0.8, "game rate {game_rate}");
        assert!(low_rate >= 0.8, "part-score rate {low_rate}");
        assert!(
            bad_slams * 100 <= deals,
            "{bad_slams} slams with under 29 HCP"
        );
    }
}
