//! A double-dummy solver: with every hand known, how many tricks can the side on turn take
//! if all four players play perfectly? Bots use it to choose a card from sampled deals.
//!
//! The search is a null-window alpha-beta on "can the side take at least `target` tricks",
//! repeated in a binary search for the exact count. Three things keep it fast:
//! - **Equivalent cards**: cards of one hand that are adjacent in a suit once the cards no
//!   longer held are removed win and lose the same tricks, so only one of them is tried.
//! - **A transposition table** at every trick's start, keyed by who leads and, per suit, which
//!   hand holds each remaining card from the top down. Relative ranks are all that matter, so
//!   positions that differ only in which small cards are gone share one entry. It keeps a lower
//!   and an upper bound on the tricks the searching side takes from there.
//! - **Move ordering**: cheap winners first, low cards when partner is already winning.
//!
//! The solver also takes a position in the middle of a trick, so a bot can ask it on its turn.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use thiserror::Error;

use super::call::Strain;
use crate::card::{Card, CardSet};
use crate::seat::{PerSeat, Seat};

/// Why a position cannot be solved.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DdsError {
    /// The hands are not the four of a bridge table.
    #[error("a bridge deal has four hands, not {0}")]
    NotFourHands(usize),
    /// A card is in two places.
    #[error("{0} is in two places")]
    Duplicate(Card),
    /// Only the 52 standard cards are dealt at bridge.
    #[error("{0} is not a bridge card")]
    NotABridgeCard(Card),
    /// A trick has at most three cards before the fourth player's turn.
    #[error("a trick in progress has at most three cards, not {0}")]
    TrickTooLong(usize),
    /// The hands' sizes do not fit: each player holds as many cards as the others, less the
    /// one played to the current trick.
    #[error("the hands do not fit: {0:?} cards after {1} played to this trick")]
    HandSizes(Vec<u32>, usize),
    /// There is nothing left to play.
    #[error("every card has been played")]
    NothingToPlay,
}

/// A position to solve: the cards still held, the strain, and the trick in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The cards each seat still holds (not those played to the current trick).
    pub hands: PerSeat<CardSet>,
    /// The trump suit, or no trump.
    pub strain: Strain,
    /// The seat that led (or is to lead) the current trick.
    pub leader: Seat,
    /// The cards played to the current trick so far, the leader's first (at most three).
    pub trick: Vec<Card>,
}

impl Position {
    /// A position at the start of a trick, `leader` to lead.
    #[must_use]
    pub fn new(hands: PerSeat<CardSet>, strain: Strain, leader: Seat) -> Position {
        Position {
            hands,
            strain,
            leader,
            trick: Vec::new(),
        }
    }

    /// The seat whose turn it is.
    #[must_use]
    pub fn to_play(&self) -> Seat {
        self.leader.left(self.trick.len() as u8, 4)
    }

    /// Checks the position makes sense; returns the tricks still to be won (current included).
    fn check(&self) -> Result<u32, DdsError> {
        if self.hands.len() != 4 {
            return Err(DdsError::NotFourHands(self.hands.len()));
        }
        if self.trick.len() > 3 {
            return Err(DdsError::TrickTooLong(self.trick.len()));
        }
        let mut seen = CardSet::EMPTY;
        let held = self.hands.as_slice().iter().flat_map(|h| h.iter());
        for card in held.chain(self.trick.iter().copied()) {
            if card.is_joker() {
                return Err(DdsError::NotABridgeCard(card));
            }
            if !seen.insert(card) {
                return Err(DdsError::Duplicate(card));
            }
        }
        let sizes: Vec<u32> = self.hands.as_slice().iter().map(|h| h.len()).collect();
        let on_turn = self.to_play();
        let tricks = self.hands[on_turn].len();
        let fits = (0..4u8).all(|i| {
            let seat = self.leader.left(i, 4);
            let played = usize::from(i) < self.trick.len();
            self.hands[seat].len() + u32::from(played) == tricks
        });
        if !fits {
            return Err(DdsError::HandSizes(sizes, self.trick.len()));
        }
        if tricks == 0 {
            return Err(DdsError::NothingToPlay);
        }
        Ok(tricks)
    }
}

/// The most tricks the side of `leader` takes from here, `leader` to lead with every hand
/// holding the same number of cards, all four playing perfectly.
pub fn solve(hands: &PerSeat<CardSet>, strain: Strain, leader: Seat) -> Result<u8, DdsError> {
    solve_position(&Position::new(*hands, strain, leader))
}

/// The most tricks the side of the seat on turn takes of those still to be won, counting
/// the trick in progress.
pub fn solve_position(position: &Position) -> Result<u8, DdsError> {
    let tricks = position.check()?;
    let mut search = Search::new(position);
    let mut trick = [0u8; 4];
    for (slot, card) in trick.iter_mut().zip(&position.trick) {
        *slot = card.index();
    }
    let leader = position.leader.0;
    let n = position.trick.len();
    Ok(search.value(tricks as i32, |s, target| {
        s.play(leader, &mut trick, n, target)
    }))
}

/// The best cards for the seat on turn and the tricks they bring.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestPlays {
    /// The tricks the side on turn takes with any of `cards` (current trick included).
    pub tricks: u8,
    /// Every card that achieves it, in index order.
    pub cards: Vec<Card>,
}

/// Every card the seat on turn may play that keeps the most tricks for its side.
pub fn best_plays(position: &Position) -> Result<BestPlays, DdsError> {
    let tricks = position.check()? as i32;
    let mut search = Search::new(position);
    let leader = position.leader.0;
    let n = position.trick.len();
    let player = (leader + n as u8) & 3;
    let mut trick = [0u8; 4];
    for (slot, card) in trick.iter_mut().zip(&position.trick) {
        *slot = card.index();
    }
    let hand = search.hands[usize::from(player)];
    let legal = legal_cards(hand, n, &trick);
    let mut best = BestPlays {
        tricks: 0,
        cards: Vec::new(),
    };
    for card in CardSet::from_bits(legal).iter() {
        let bit = 1u64 << card.index();
        search.hands[usize::from(player)] &= !bit;
        trick[n] = card.index();
        let value = search.value(tricks, |s, target| {
            let mut t = trick;
            s.play(leader, &mut t, n + 1, target)
        });
        search.hands[usize::from(player)] |= bit;
        if value > best.tricks || best.cards.is_empty() {
            best = BestPlays {
                tricks: value,
                cards: Vec::new(),
            };
        }
        if value == best.tricks {
            best.cards.push(card);
        }
    }
    Ok(best)
}

/// Every legal card of the seat on turn with the tricks its side takes after playing it
/// (the current trick included), in index order.
pub fn card_values(position: &Position) -> Result<Vec<(Card, u8)>, DdsError> {
    card_values_within(position, u64::MAX).map(|v| v.expect("no limit"))
}

/// [`card_values`], giving up (`Ok(None)`) once the search has visited `max_nodes` positions:
/// a deterministic bound on the work, where a clock would not replay.
///
/// Cards equivalent in the position (adjacent in a suit once the cards gone are removed) are
/// solved once. Each card's count starts from the previous card's, so most take two
/// null-window searches, all sharing one table.
pub fn card_values_within(
    position: &Position,
    max_nodes: u64,
) -> Result<Option<Vec<(Card, u8)>>, DdsError> {
    let tricks = position.check()? as i32;
    let mut search = Search::new(position);
    search.limit = max_nodes;
    let leader = position.leader.0;
    let n = position.trick.len();
    let player = usize::from((leader + n as u8) & 3);
    let mut trick = [0u8; 4];
    for (slot, card) in trick.iter_mut().zip(&position.trick) {
        *slot = card.index();
    }
    let hand = search.hands[player];
    let legal = legal_cards(hand, n, &trick);
    let mut present = search.hands.iter().fold(0u64, |a, &h| a | h);
    for &c in &trick[..n] {
        present |= 1 << c;
    }
    let others = present & !hand;
    let mut values: Vec<(Card, u8)> = Vec::new();
    let mut guess: Option<i32> = None;
    let mut previous: Option<(u8, u8)> = None;
    // Highest first, so a run of equivalent cards is met top down.
    let mut bits = legal;
    while bits != 0 {
        let card = 63 - bits.leading_zeros() as u8;
        bits &= !(1u64 << card);
        if let Some((p, value)) = previous {
            let between = ((1u64 << p) - 1) & !((2u64 << card) - 1);
            if suit_of(p) == suit_of(card) && others & between == 0 {
                values.push((Card::from_index(card), value));
                previous = Some((card, value));
                continue;
            }
        }
        let bit = 1u64 << card;
        search.hands[player] &= !bit;
        trick[n] = card;
        let play = |s: &mut Search, target: i32| {
            let mut t = trick;
            s.play(leader, &mut t, n + 1, target)
        };
        let value = match guess {
            Some(g) => search.value_from(tricks, g, play),
            None => search.value(tricks, play),
        };
        search.hands[player] |= bit;
        if search.aborted {
            return Ok(None);
        }
        guess = Some(i32::from(value));
        values.push((Card::from_index(card), value));
        previous = Some((card, value));
    }
    values.sort_unstable_by_key(|&(c, _)| c.index());
    Ok(Some(values))
}

/// The suit (0..4) of a card index.
#[inline]
fn suit_of(card: u8) -> u8 {
    card / 13
}

/// True when the led suit is trumps (nobody can ruff it).
#[inline]
fn led_is_trump(led: u64, trumps: u64) -> bool {
    led == trumps
}

/// The 13 bits of suit `suit`.
#[inline]
fn suit_mask(suit: u8) -> u64 {
    0x1fff << (13 * u64::from(suit))
}

/// The cards `hand` may play as the `n`th card of a trick (the led suit if it has one).
fn legal_cards(hand: u64, n: usize, trick: &[u8; 4]) -> u64 {
    if n == 0 {
        return hand;
    }
    let follow = hand & suit_mask(suit_of(trick[0]));
    if follow != 0 { follow } else { hand }
}

/// The position of the card winning `trick` (four cards from the leader) under `trump`.
fn winning_index(trick: &[u8], trump: Option<u8>) -> usize {
    let mut best = 0;
    for i in 1..trick.len() {
        let (c, b) = (trick[i], trick[best]);
        let beats = if suit_of(c) == suit_of(b) {
            c > b
        } else {
            Some(suit_of(c)) == trump
        };
        if beats {
            best = i;
        }
    }
    best
}

/// A hasher for the table's keys, which are already well mixed bit patterns: one multiply
/// and a fold instead of the default hasher's rounds, which dominate the search otherwise.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn write_u128(&mut self, key: u128) {
        let folded = (key as u64) ^ ((key >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mixed = (folded ^ (folded >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        self.0 = mixed ^ (mixed >> 32);
    }
}

/// Bounds on the tricks the searching side takes from a trick's start, valid for every
/// position whose top `depth[s]` cards of each suit `s` lie with the same hands and whose
/// hands hold as many cards of each suit: the search that found the bounds never needed the
/// rank of a lower card. The owners are kept as a [`Layout`]'s packed bits under `mask`, so
/// checking an entry is one masked compare (the scan of a bucket's entries is the solver's
/// hottest loop).
#[derive(Clone, Copy)]
struct Entry {
    mask: u128,
    owners: u128,
    depth: [u8; 4],
    lower: u8,
    upper: u8,
}

/// Per suit, who holds each remaining card (two bits a card, the top card in the highest
/// bits of the suit's 32-bit lane), and how many cards remain.
#[derive(Clone, Copy)]
struct Layout {
    owners: u128,
    len: [u8; 4],
}

impl Layout {
    /// The bits of the top `depth[s]` cards of each suit `s`.
    fn mask(&self, depth: [u8; 4]) -> u128 {
        let mut mask = 0u128;
        for (suit, (&d, &len)) in depth.iter().zip(&self.len).enumerate() {
            let below = 2 * u32::from(len - d);
            let d = u32::from(d);
            let lane = ((1u128 << (2 * d)) - 1) << below;
            mask |= lane << (32 * suit);
        }
        mask
    }

    fn matches(&self, entry: &Entry) -> bool {
        self.owners & entry.mask == entry.owners
    }
}

/// One solve: the hands as bit masks by seat, the trump, and the table of known bounds.
struct Search {
    /// Cards held, by seat number.
    hands: [u64; 4],
    /// Trump suit index, `None` at no trump.
    trump: Option<u8>,
    /// The searching side: 0 for North-South, 1 for East-West.
    side: u8,
    /// Positions visited, for measurements and the node limit.
    nodes: u64,
    /// The most positions to visit before giving up ([`card_values_within`]).
    limit: u64,
    /// Set once `limit` is passed: every answer from then on is meaningless and none is
    /// stored.
    aborted: bool,
    /// The lead that settled each trick-start position last time (suit, and place from
    /// the top of the suit's remaining cards), tried first when the position comes again:
    /// the binary search meets the same positions with other targets.
    best_lead: HashMap<u128, (u8, u8), BuildHasherDefault<KeyHasher>>,
    /// Known bounds, by the leader and the length of every hand in every suit.
    table: HashMap<u128, Vec<Entry>, BuildHasherDefault<KeyHasher>>,
}

impl Search {
    fn new(position: &Position) -> Search {
        let mut hands = [0u64; 4];
        for (seat, hand) in position.hands.iter() {
            hands[seat.index()] = hand.bits();
        }
        Search {
            hands,
            trump: position.strain.trump().map(|s| s as u8),
            side: position.to_play().0 & 1,
            nodes: 0,
            limit: u64::MAX,
            aborted: false,
            best_lead: HashMap::default(),
            table: HashMap::default(),
        }
    }

    /// The exact value of `test` (a "takes at least `target`" search) between 0 and `max`,
    /// by binary search.
    fn value(&mut self, max: i32, mut test: impl FnMut(&mut Search, i32) -> bool) -> u8 {
        let (mut low, mut high) = (0, max);
        while low < high && !self.aborted {
            let mid = (low + high + 1) / 2;
            if test(self, mid) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        low as u8
    }

    /// The exact value of `test` between 0 and `max`, starting from `guess` and stepping one
    /// trick at a time: when the guess is close (another card's value in the same position),
    /// two tests settle it where a binary search takes four.
    fn value_from(
        &mut self,
        max: i32,
        guess: i32,
        mut test: impl FnMut(&mut Search, i32) -> bool,
    ) -> u8 {
        let guess = guess.clamp(0, max);
        if guess == 0 || test(self, guess) {
            let mut low = guess;
            while low < max && !self.aborted && test(self, low + 1) {
                low += 1;
            }
            low as u8
        } else {
            let mut high = guess - 1;
            while high > 0 && !self.aborted && !test(self, high) {
                high -= 1;
            }
            high as u8
        }
    }

    /// True when the searching side can take `target` of the tricks left, `leader` to lead.
    #[cfg(test)]
    fn trick_start(&mut self, leader: u8, target: i32) -> bool {
        self.trick_start_ranks(leader, target).0
    }

    /// [`Search::trick_start`], with the cards whose ranks the answer depends on: the
    /// answer holds in any position where every card of a suit down to the lowest of these
    /// is with the same hand and each hand has as many cards of each suit.
    fn trick_start_ranks(&mut self, leader: u8, target: i32) -> (bool, u64) {
        let left = self.hands[usize::from(leader)].count_ones() as i32;
        if target <= 0 {
            return (true, 0);
        }
        if target > left {
            return (false, 0);
        }
        if left == 1 {
            let mut trick = [0u8; 4];
            for (i, slot) in trick.iter_mut().enumerate() {
                let seat = (leader as usize + i) & 3;
                *slot = self.hands[seat].trailing_zeros() as u8;
            }
            let at = winning_index(&trick, self.trump);
            let winner = (leader as usize + at) & 3;
            return ((winner as u8 & 1) == self.side, rank_won(&trick, at));
        }
        // Tricks the leader can cash at once bound the result from one side.
        let (sure, sure_ranks) = self.quick_tricks(usize::from(leader));
        if leader & 1 == self.side {
            if sure >= target {
                return (true, sure_ranks);
            }
        } else if left - sure < target {
            return (false, sure_ranks);
        }
        // Master trumps: each of one hand's trumps above all the opponents' wins a trick of
        // its own, whoever leads.
        if let Some(trump) = self.trump {
            let (ours, ours_ranks) = self.master_trumps(self.side, trump);
            if ours >= target {
                return (true, ours_ranks);
            }
            let (theirs, theirs_ranks) = self.master_trumps(self.side ^ 1, trump);
            if left - theirs < target {
                return (false, theirs_ranks);
            }
        }
        let (bucket, layout) = self.layout(leader);
        if let Some(entries) = self.table.get(&bucket) {
            for e in entries {
                if !layout.matches(e) {
                    continue;
                }
                let known = if i32::from(e.lower) >= target {
                    Some(true)
                } else if i32::from(e.upper) < target {
                    Some(false)
                } else {
                    None
                };
                if let Some(result) = known {
                    return (result, self.top_cards(e.depth));
                }
            }
        }
        let exact = bucket ^ layout.owners.rotate_left(2);
        let all = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3];
        let hint = self.best_lead.get(&exact).map(|&(suit, from_top)| {
            let mut bits = all & suit_mask(suit);
            for _ in 0..from_top {
                bits &= !(1u64 << (63 - bits.leading_zeros()));
            }
            63 - bits.leading_zeros() as u8
        });
        let mut trick = [0u8; 4];
        let (result, ranks, cut) = self.lead(leader, &mut trick, target, hint);
        if self.aborted {
            return (false, 0);
        }
        if let Some(card) = cut {
            let above = all & suit_mask(suit_of(card)) & !((2u64 << card) - 1);
            self.best_lead
                .insert(exact, (suit_of(card), above.count_ones() as u8));
        }
        // Keep the bound for every position that agrees down to the ranks that mattered.
        let mut depth = [0u8; 4];
        for (suit, d) in depth.iter_mut().enumerate() {
            let mask = suit_mask(suit as u8);
            let needed = ranks & mask;
            if needed != 0 {
                let lowest = needed.trailing_zeros();
                *d = (all & mask & !((1u64 << lowest) - 1)).count_ones() as u8;
            }
        }
        let mask = layout.mask(depth);
        let owners = layout.owners & mask;
        let entries = self.table.entry(bucket).or_default();
        let slot = match entries
            .iter_mut()
            .position(|e| e.mask == mask && e.owners == owners)
        {
            Some(i) => &mut entries[i],
            None => {
                entries.push(Entry {
                    mask,
                    owners,
                    depth,
                    lower: 0,
                    upper: left as u8,
                });
                entries.last_mut().expect("just pushed")
            }
        };
        if result {
            slot.lower = slot.lower.max(target as u8);
        } else {
            slot.upper = slot.upper.min(target as u8 - 1);
        }
        (result, ranks)
    }

    /// The most trumps one hand of `side` holds above every trump of the other side (each
    /// wins a trick, since it wins whenever it is played), and the trumps that count
    /// depends on: those down to the other side's highest.
    fn master_trumps(&self, side: u8, trump: u8) -> (i32, u64) {
        let mask = suit_mask(trump);
        let [a, b] = [
            self.hands[usize::from(side)],
            self.hands[usize::from(side + 2)],
        ];
        let other =
            (self.hands[usize::from(side ^ 1)] | self.hands[usize::from((side ^ 1) + 2)]) & mask;
        let above = if other == 0 {
            mask
        } else {
            let highest = 63 - other.leading_zeros();
            mask & !((2u64 << highest) - 1)
        };
        let count = (a & above).count_ones().max((b & above).count_ones()) as i32;
        let ranks = if other == 0 {
            0
        } else {
            (a | b | other) & mask & !((1u64 << (63 - other.leading_zeros())) - 1)
        };
        (count, ranks)
    }

    /// The top `depth[s]` remaining cards of each suit `s`.
    fn top_cards(&self, depth: [u8; 4]) -> u64 {
        let all = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3];
        let mut cards = 0;
        for (suit, &d) in depth.iter().enumerate() {
            let mut bits = all & suit_mask(suit as u8);
            for _ in 0..d {
                let card = 63 - bits.leading_zeros();
                cards |= 1u64 << card;
                bits &= !(1u64 << card);
            }
        }
        cards
    }

    /// Tricks the leader is sure to take by leading from the top, without giving up the lead:
    /// in each suit the run of top cards the leader holds (all the leader's cards of the suit
    /// when the opponents have no more and partner cannot overtake), in a trump contract only
    /// for as many rounds as every opponent with a trump can follow. An opponent with a trump
    /// follows every counted round of a side suit, so no cash changes another suit's count.
    /// Also returns the cards the count depends on: the runs counted, and the whole suit
    /// where the count relied on the leader's small cards.
    fn quick_tricks(&self, leader: usize) -> (i32, u64) {
        let hand = self.hands[leader];
        let partner = self.hands[(leader + 2) & 3];
        let opponents = [self.hands[(leader + 1) & 3], self.hands[(leader + 3) & 3]];
        let all = hand | partner | opponents[0] | opponents[1];
        let mut total = 0;
        let mut ranks = 0u64;
        for suit in 0..4u8 {
            let mask = suit_mask(suit);
            let mine = hand & mask;
            if mine == 0 {
                continue;
            }
            let mut rest = all & mask;
            let mut top = 0;
            let mut run = 0u64;
            while rest != 0 {
                let card = 63 - rest.leading_zeros();
                if mine & (1 << card) == 0 {
                    break;
                }
                top += 1;
                run |= 1u64 << card;
                rest &= !(1u64 << card);
            }
            if top == 0 {
                continue;
            }
            let longest_opponent = opponents
                .iter()
                .map(|o| (o & mask).count_ones())
                .max()
                .unwrap_or(0);
            let lowest_mine = mine.trailing_zeros();
            let partner_below = (partner & mask) < (1u64 << lowest_mine);
            let long = top >= longest_opponent && partner_below;
            let mut winners = if long { mine.count_ones() } else { top };
            if let Some(trump) = self.trump.filter(|&t| t != suit) {
                for o in opponents {
                    if o & suit_mask(trump) != 0 {
                        winners = winners.min((o & mask).count_ones());
                    }
                }
            }
            if winners > 0 {
                ranks |= if long { all & mask } else { run };
            }
            total += winners as i32;
        }
        (total, ranks)
    }

    /// True when the searching side can take `target` tricks (this one included) with `n`
    /// cards of the current trick played.
    fn play(&mut self, leader: u8, trick: &mut [u8; 4], n: usize, target: i32) -> bool {
        self.play_ranks(leader, trick, n, target).0
    }

    /// [`Search::play`], with the cards whose ranks the answer depends on (see
    /// [`Search::trick_start_ranks`]): a side that finds a good card depends only on that
    /// card's line; a side for which nothing works depends on every line it tried.
    fn play_ranks(
        &mut self,
        leader: u8,
        trick: &mut [u8; 4],
        n: usize,
        target: i32,
    ) -> (bool, u64) {
        self.nodes += 1;
        if self.nodes > self.limit {
            self.aborted = true;
            return (false, 0);
        }
        if n == 4 {
            let at = winning_index(trick, self.trump);
            let winner = ((leader as usize + at) & 3) as u8;
            let won = i32::from(winner & 1 == self.side);
            let (result, ranks) = self.trick_start_ranks(winner, target - won);
            return (result, ranks | rank_won(trick, at));
        }
        let player = usize::from((leader + n as u8) & 3);
        let maximising = (player as u8 & 1) == self.side;
        let (moves, count) = self.moves(player, n, trick);
        // If nothing works, that holds only while the cards not tried stay equivalent to
        // those tried: their ranks matter too.
        let mut all_ranks = self.skipped(player, n, trick, &moves[..count]);
        for &card in &moves[..count] {
            let bit = 1u64 << card;
            self.hands[player] &= !bit;
            trick[n] = card;
            let (result, ranks) = self.play_ranks(leader, trick, n + 1, target);
            self.hands[player] |= bit;
            if self.aborted {
                return (false, 0);
            }
            if result == maximising {
                return (result, ranks);
            }
            all_ranks |= ranks;
        }
        (!maximising, all_ranks)
    }

    /// The leader's turn: [`Search::play_ranks`] trying `hint` first, also naming the lead
    /// that settled the question, if one did.
    fn lead(
        &mut self,
        leader: u8,
        trick: &mut [u8; 4],
        target: i32,
        hint: Option<u8>,
    ) -> (bool, u64, Option<u8>) {
        self.nodes += 1;
        let player = usize::from(leader);
        let maximising = (leader & 1) == self.side;
        let (mut moves, count) = self.moves(player, 0, trick);
        let mut all_ranks = self.skipped(player, 0, trick, &moves[..count]);
        if let Some(h) = hint
            && let Some(i) = moves[..count].iter().position(|&c| c == h)
        {
            moves[..=i].rotate_right(1);
        }
        for &card in &moves[..count] {
            let bit = 1u64 << card;
            self.hands[player] &= !bit;
            trick[0] = card;
            let (result, ranks) = self.play_ranks(leader, trick, 1, target);
            self.hands[player] |= bit;
            if self.aborted {
                return (false, 0, None);
            }
            if result == maximising {
                return (result, ranks, Some(card));
            }
            all_ranks |= ranks;
        }
        (!maximising, all_ranks, None)
    }

    /// The legal cards of `player` left out of `tried` as equivalent to one tried.
    fn skipped(&self, player: usize, n: usize, trick: &[u8; 4], tried: &[u8]) -> u64 {
        let mut legal = legal_cards(self.hands[player], n, trick);
        for &card in tried {
            legal &= !(1u64 << card);
        }
        legal
    }

    /// The cards worth trying for `player`: one of each run of equivalent cards, best first.
    fn moves(&self, player: usize, n: usize, trick: &[u8; 4]) -> ([u8; 13], usize) {
        let hand = self.hands[player];
        let legal = legal_cards(hand, n, trick);
        let mut present = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3];
        for &c in &trick[..n] {
            present |= 1 << c;
        }
        let others = present & !hand;
        // One card per run, highest first within each suit.
        let mut reps = [0u8; 13];
        let mut count = 0;
        let mut bits = legal;
        let mut previous: Option<u8> = None;
        while bits != 0 {
            let card = 63 - bits.leading_zeros() as u8;
            bits &= !(1u64 << card);
            let equivalent = previous.is_some_and(|p| {
                suit_of(p) == suit_of(card) && {
                    let between = ((1u64 << p) - 1) & !((2u64 << card) - 1);
                    others & between == 0
                }
            });
            previous = Some(card);
            if !equivalent {
                reps[count] = card;
                count += 1;
            }
        }
        let mut keyed = [(0i32, 0u8); 13];
        for i in 0..count {
            keyed[i] = (self.order_key(player, n, trick, reps[i], present), reps[i]);
        }
        keyed[..count].sort_unstable_by_key(|&(k, c)| (std::cmp::Reverse(k), c));
        let mut moves = [0u8; 13];
        for i in 0..count {
            moves[i] = keyed[i].1;
        }
        (moves, count)
    }

    /// How promising `card` looks for `player` (higher is tried first): the plays a good
    /// player tries first usually prove the bound soonest.
    fn order_key(&self, player: usize, n: usize, trick: &[u8; 4], card: u8, present: u64) -> i32 {
        let rank = i32::from(card % 13);
        let suit = suit_of(card);
        let mask = suit_mask(suit);
        let partner = self.hands[(player + 2) & 3];
        let lho = self.hands[(player + 1) & 3];
        let rho = self.hands[(player + 3) & 3];
        let trumps = self.trump.map_or(0, suit_mask);
        let is_trump = Some(suit) == self.trump;
        if n == 0 {
            let above = present & mask & !((2u64 << card) - 1);
            let top = above & !self.hands[player] == 0;
            let ruffable = !is_trump && [lho, rho].iter().any(|o| o & mask == 0 && o & trumps != 0);
            if ruffable {
                return -rank;
            }
            if top {
                // A winner: cash it.
                return 200 + rank;
            }
            // Partner holds the suit's top card: lead low to it.
            let suit_top = 63 - (present & mask).leading_zeros();
            if partner & (1u64 << suit_top) != 0 {
                return 150 - rank;
            }
            // Partner can ruff this suit.
            if !is_trump && partner & mask == 0 && partner & trumps != 0 {
                return 140 - rank;
            }
            // Otherwise lead through the left-hand opponent's strength: prefer suits where
            // the top card is on the right, low cards first.
            let rho_top = rho & (1u64 << suit_top) != 0;
            let length = (self.hands[player] & mask).count_ones() as i32;
            return if rho_top { 80 - rank } else { 60 - rank } + 2 * length;
        }
        let win_at = winning_index(&trick[..n], self.trump);
        let partner_winning = (n - win_at).is_multiple_of(2);
        let mut with_card = *trick;
        with_card[n] = card;
        let wins = winning_index(&with_card[..=n], self.trump) == n;
        let led = suit_mask(suit_of(trick[0]));
        // Would the card stand against the players still to play (only the left-hand
        // opponent matters for the trick's side when partner plays last)?
        let stands = |c: u8| -> bool {
            let later: &[u64] = match n {
                1 => &[lho, partner],
                2 => &[lho],
                _ => &[],
            };
            later.iter().enumerate().all(|(i, &h)| {
                if i == 1 {
                    return true; // partner, same side
                }
                let follow = h & led;
                let beats = if suit_of(c) == suit_of(trick[0]) {
                    follow & !((2u64 << c) - 1) != 0
                        || (follow == 0 && h & trumps != 0 && !led_is_trump(led, trumps))
                } else {
                    // c is a ruff: beaten by a higher trump only from a void hand.
                    follow == 0 && h & trumps & !((2u64 << c) - 1) != 0
                };
                !beats
            })
        };
        if partner_winning {
            let partner_card = with_card[win_at];
            if stands(partner_card) || n == 3 {
                // Partner has the trick: throw the cheapest card.
                let penalty = if is_trump { 20 } else { 0 };
                return 100 - rank - penalty - if wins { 30 } else { 0 };
            }
        }
        if wins {
            if stands(card) {
                return 200 - rank;
            }
            // A winner that may be overtaken: second hand plays low instead.
            return if n == 1 { 40 - rank } else { 120 - rank };
        }
        let penalty = if is_trump { 20 } else { 0 };
        if self.hands[player] & led != 0 {
            return 60 - rank - penalty;
        }
        // A discard: from a long suit, never a suit's top card if avoidable.
        let length = (self.hands[player] & mask).count_ones() as i32;
        let above = present & mask & !((2u64 << card) - 1);
        let winner = if above == 0 { 30 } else { 0 };
        60 - rank - penalty + 2 * length - winner
    }

    /// The table's bucket (the leader and every hand's length in every suit) and the
    /// position's layout.
    fn layout(&self, leader: u8) -> (u128, Layout) {
        let [n, e, s, w] = self.hands;
        let all = n | e | s | w;
        let low_bit = e | w;
        let high_bit = s | w;
        let mut bucket = u128::from(leader);
        for hand in self.hands {
            for suit in 0..4 {
                bucket = (bucket << 4) | u128::from((hand & suit_mask(suit)).count_ones());
            }
        }
        let mut layout = Layout {
            owners: 0,
            len: [0; 4],
        };
        for suit in 0..4 {
            let mut bits = all & suit_mask(suit as u8);
            layout.len[suit] = bits.count_ones() as u8;
            let mut owners = 0u32;
            while bits != 0 {
                let card = 63 - bits.leading_zeros();
                bits &= !(1u64 << card);
                let owner = ((low_bit >> card) & 1) | (((high_bit >> card) & 1) << 1);
                owners = (owners << 2) | owner as u32;
            }
            layout.owners |= u128::from(owners) << (32 * suit);
        }
        (bucket, layout)
    }
}

/// The winning card of `trick` if it won by its rank (it beat another card of its suit),
/// else nothing: a card that wins because nobody else followed needs no rank.
fn rank_won(trick: &[u8; 4], at: usize) -> u64 {
    let card = trick[at];
    let contested = (0..4).any(|i| i != at && suit_of(trick[i]) == suit_of(card));
    if contested { 1u64 << card } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::{EAST, NORTH, SOUTH, WEST};
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn hands(n: &str, e: &str, s: &str, w: &str) -> PerSeat<CardSet> {
        PerSeat::from_slice(&[n, e, s, w].map(|h| CardSet::parse_compact(h).expect("a hand")))
    }

    /// Plain minimax over every legal card, no pruning of any kind: the reference.
    fn minimax(
        hands: &mut [u64; 4],
        trump: Option<u8>,
        leader: u8,
        trick: &mut [u8; 4],
        n: usize,
        side: u8,
    ) -> u8 {
        if n == 4 {
            let winner = ((leader as usize + winning_index(trick, trump)) & 3) as u8;
            let won = u8::from(winner & 1 == side);
            if hands[0] == 0 {
                return won;
            }
            return won + minimax(hands, trump, winner, &mut [0; 4], 0, side);
        }
        let player = usize::from((leader + n as u8) & 3);
        let maximising = player as u8 & 1 == side;
        let legal = legal_cards(hands[player], n, trick);
        let mut best: Option<u8> = None;
        for card in CardSet::from_bits(legal).iter() {
            let bit = 1u64 << card.index();
            hands[player] &= !bit;
            trick[n] = card.index();
            let v = minimax(hands, trump, leader, trick, n + 1, side);
            hands[player] |= bit;
            best = Some(match best {
                None => v,
                Some(b) if maximising => b.max(v),
                Some(b) => b.min(v),
            });
        }
        best.expect("a card to play")
    }

    /// Alpha-beta over every legal card in index order, with no table and no equivalence:
    /// a second reference, fast enough for deals of six or seven cards.
    #[allow(clippy::too_many_arguments)]
    fn alphabeta(
        hands: &mut [u64; 4],
        trump: Option<u8>,
        leader: u8,
        trick: &mut [u8; 4],
        n: usize,
        side: u8,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        if n == 4 {
            let winner = ((leader as usize + winning_index(trick, trump)) & 3) as u8;
            let won = i32::from(winner & 1 == side);
            if hands[0] == 0 && hands[1] == 0 {
                return won;
            }
            return won
                + alphabeta(
                    hands,
                    trump,
                    winner,
                    &mut [0; 4],
                    0,
                    side,
                    alpha - won,
                    beta - won,
                );
        }
        let player = usize::from((leader + n as u8) & 3);
        let maximising = player as u8 & 1 == side;
        let legal = legal_cards(hands[player], n, trick);
        let mut best = if maximising { -1 } else { 14 };
        for card in CardSet::from_bits(legal).iter() {
            let bit = 1u64 << card.index();
            hands[player] &= !bit;
            trick[n] = card.index();
            let v = alphabeta(hands, trump, leader, trick, n + 1, side, alpha, beta);
            hands[player] |= bit;
            if maximising {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    fn reference(position: &Position) -> u8 {
        let mut hands = [0u64; 4];
        for (seat, hand) in position.hands.iter() {
            hands[seat.index()] = hand.bits();
        }
        let mut trick = [0u8; 4];
        for (slot, card) in trick.iter_mut().zip(&position.trick) {
            *slot = card.index();
        }
        let side = position.to_play().0 & 1;
        minimax(
            &mut hands,
            position.strain.trump().map(|s| s as u8),
            position.leader.0,
            &mut trick,
            position.trick.len(),
            side,
        )
    }

    /// How many random deals a consistency test tries: `default`, or `DDS_ROUNDS` for a
    /// longer run by hand.
    fn rounds(default: usize) -> usize {
        std::env::var("DDS_ROUNDS").map_or(default, |v| v.parse().expect("a number"))
    }

    /// A random deal of `size` cards each, from a seeded generator.
    fn random_deal(rng: &mut ChaCha8Rng, size: usize) -> PerSeat<CardSet> {
        let mut deck: Vec<Card> = CardSet::FULL.iter().collect();
        deck.shuffle(rng);
        let mut out = PerSeat::new(4);
        for (i, chunk) in deck.chunks(size).take(4).enumerate() {
            out[Seat(i as u8)] = chunk.iter().copied().collect();
        }
        out
    }

    #[test]
    fn a_finesse_works_only_when_led_toward_the_tenace_with_the_king_onside() {
        // South leads toward North's AQ; West holds the king.
        let onside = hands("AQs", "65s", "32s", "K4s");
        assert_eq!(solve(&onside, Strain::NoTrump, SOUTH), Ok(2));
        // North must lead from the tenace itself: the queen loses to the king.
        assert_eq!(solve(&onside, Strain::NoTrump, NORTH), Ok(2 - 1));
        // The king behind the tenace: no finesse works.
        let offside = hands("AQs", "K4s", "32s", "65s");
        assert_eq!(solve(&offside, Strain::NoTrump, SOUTH), Ok(1));
        // East-West on lead take nothing: whatever they lead, North sits over the king.
        assert_eq!(solve(&onside, Strain::NoTrump, WEST), Ok(0));
        assert_eq!(solve(&onside, Strain::NoTrump, EAST), Ok(0));
    }

    #[test]
    fn an_unblocking_ruff_found_by_random_testing() {
        // Diamonds are trumps; West led the heart nine. North and East must follow; South
        // ruffs high, keeping the diamond two to lead to North's eight later, then discards
        // the spade seven on North's club king and ruffs the spade return: all four tricks.
        // Ruffing with the two takes only three.
        let position = Position {
            hands: hands("Kc 8d 8s 7h", "39c 6d Jh", "29Kd 7s", "8c 5d Ks"),
            strain: Strain::Diamonds,
            leader: WEST,
            trick: vec!["9H".parse().unwrap()],
        };
        assert_eq!(reference(&position), 4);
        assert_eq!(solve_position(&position), Ok(4));
        let mut ruff = position.clone();
        for card in ["7H", "JH"] {
            let seat = ruff.to_play();
            ruff.hands[seat].remove(card.parse().unwrap());
            ruff.trick.push(card.parse().unwrap());
        }
        let best = best_plays(&ruff).unwrap();
        assert_eq!(best.tricks, 4);
        assert_eq!(
            best.cards,
            vec!["9D".parse().unwrap(), "KD".parse().unwrap()]
        );
    }

    #[test]
    fn a_simple_squeeze_against_west_and_its_failure_against_east() {
        // South cashes the club ace; West cannot keep both the spade king guarded and the
        // heart king, and North discards after him.
        let squeeze = hands("A2s Qh", "567d", "Ac 4s 2d", "K3s Kh");
        assert_eq!(solve(&squeeze, Strain::NoTrump, SOUTH), Ok(3));
        // The same guards with East, who discards after North: one trick is lost.
        let wrong_side = hands("A2s Qh", "K3s Kh", "Ac 4s 2d", "567d");
        assert_eq!(solve(&wrong_side, Strain::NoTrump, SOUTH), Ok(2));
    }

    #[test]
    fn trumps_ruff_and_no_trump_does_not() {
        let deal = hands("2h 3c", "AKc", "45c", "23s");
        assert_eq!(solve(&deal, Strain::NoTrump, EAST), Ok(2));
        assert_eq!(solve(&deal, Strain::Hearts, EAST), Ok(1));
        assert_eq!(
            solve(&deal, Strain::Spades, EAST),
            Ok(2),
            "West cannot overruff: no hearts to ruff"
        );
    }

    #[test]
    fn mid_trick_positions_and_best_plays() {
        // West led the spade king into North's AQ: North wins with the ace, and the queen
        // is then high too.
        let position = Position {
            hands: hands("AQs", "65s", "32s", "4s"),
            strain: Strain::NoTrump,
            leader: WEST,
            trick: vec!["KS".parse().unwrap()],
        };
        assert_eq!(solve_position(&position), Ok(2));
        let best = best_plays(&position).unwrap();
        assert_eq!(best.tricks, 2);
        assert_eq!(best.cards, vec!["AS".parse().unwrap()]);
        // Two equivalent cards are both named.
        let position = Position::new(hands("AKs", "65s", "32s", "74s"), Strain::NoTrump, NORTH);
        let best = best_plays(&position).unwrap();
        assert_eq!(best.tricks, 2);
        assert_eq!(best.cards.len(), 2);
    }

    #[test]
    fn bad_positions_are_refused() {
        let deal = hands("AQs", "65s", "32s", "K4s");
        let mut bad = Position::new(deal, Strain::NoTrump, NORTH);
        bad.trick = vec!["AS".parse().unwrap()];
        assert_eq!(
            solve_position(&bad),
            Err(DdsError::Duplicate("AS".parse().unwrap()))
        );
        let uneven = hands("AQs", "65s", "32s", "4s");
        assert!(matches!(
            solve(&uneven, Strain::NoTrump, NORTH),
            Err(DdsError::HandSizes(..))
        ));
        let empty = PerSeat::new(4);
        assert_eq!(
            solve(&empty, Strain::Clubs, NORTH),
            Err(DdsError::NothingToPlay)
        );
        let three = PerSeat::from_slice(&[CardSet::EMPTY; 3]);
        assert_eq!(
            solve(&three, Strain::Clubs, NORTH),
            Err(DdsError::NotFourHands(3))
        );
    }

    #[test]
    fn agrees_with_plain_minimax_on_random_small_deals() {
        let mut rng = ChaCha8Rng::seed_from_u64(51);
        for round in 0..rounds(150) {
            let size = if round % 5 == 0 { 5 } else { 4 };
            let deal = random_deal(&mut rng, size);
            let strain = Strain::ALL[rng.random_range(0..5)];
            let leader = Seat(rng.random_range(0..4));
            let mut position = Position::new(deal, strain, leader);
            // Some start in the middle of a trick, with legal cards played.
            let played = rng.random_range(0..4usize);
            for i in 0..played {
                let seat = leader.left(i as u8, 4);
                let mut trick = [0u8; 4];
                for (slot, c) in trick.iter_mut().zip(&position.trick) {
                    *slot = c.index();
                }
                let legal = CardSet::from_bits(legal_cards(position.hands[seat].bits(), i, &trick));
                let card = legal.select(rng.random_range(0..legal.len()));
                position.hands[seat].remove(card);
                position.trick.push(card);
            }
            let expected = reference(&position);
            assert_eq!(solve_position(&position), Ok(expected), "{position:?}");
            let best = best_plays(&position).unwrap();
            assert_eq!(best.tricks, expected, "{position:?}");
            // Every best card really keeps the value: play it and solve for the rest.
            for &card in &best.cards {
                let mut after = position.clone();
                let seat = after.to_play();
                after.hands[seat].remove(card);
                after.trick.push(card);
                if after.trick.len() < 4 {
                    let v = reference(&after);
                    let same_side = after.to_play().0 & 1 == position.to_play().0 & 1;
                    let total = after.hands[after.to_play()].len() as u8;
                    let ours = if same_side { v } else { total - v };
                    assert_eq!(ours, expected, "{card} in {position:?}");
                }
            }
        }
    }

    /// The tricks the side on turn in `position` takes after `card`, by plain minimax.
    fn reference_after(position: &Position, card: Card) -> u8 {
        let mut after = position.clone();
        let seat = after.to_play();
        after.hands[seat].remove(card);
        after.trick.push(card);
        let side = seat.0 & 1;
        if after.trick.len() == 4 {
            let trick: Vec<u8> = after.trick.iter().map(|c| c.index()).collect();
            let trump = position.strain.trump().map(|s| s as u8);
            let winner = after.leader.left(winning_index(&trick, trump) as u8, 4);
            let won = u8::from(winner.0 & 1 == side);
            if after.hands[winner].is_empty() {
                return won;
            }
            let next = Position::new(after.hands, position.strain, winner);
            let v = reference(&next);
            let rest = after.hands[winner].len() as u8;
            return won + if winner.0 & 1 == side { v } else { rest - v };
        }
        let v = reference(&after);
        let total = after.hands[after.to_play()].len() as u8;
        if after.to_play().0 & 1 == side {
            v
        } else {
            total - v
        }
    }

    #[test]
    fn card_values_match_plain_minimax_card_by_card() {
        let mut rng = ChaCha8Rng::seed_from_u64(77);
        for _ in 0..rounds(80) {
            let deal = random_deal(&mut rng, 4);
            let strain = Strain::ALL[rng.random_range(0..5)];
            let leader = Seat(rng.random_range(0..4));
            let mut position = Position::new(deal, strain, leader);
            for i in 0..rng.random_range(0..4usize) {
                let seat = leader.left(i as u8, 4);
                let mut trick = [0u8; 4];
                for (slot, c) in trick.iter_mut().zip(&position.trick) {
                    *slot = c.index();
                }
                let legal = CardSet::from_bits(legal_cards(position.hands[seat].bits(), i, &trick));
                let card = legal.select(rng.random_range(0..legal.len()));
                position.hands[seat].remove(card);
                position.trick.push(card);
            }
            let values = card_values(&position).unwrap();
            let best = best_plays(&position).unwrap();
            let top = values.iter().map(|&(_, v)| v).max().unwrap();
            assert_eq!(top, best.tricks, "{position:?}");
            let tops: Vec<Card> = values.iter().filter(|e| e.1 == top).map(|e| e.0).collect();
            assert_eq!(tops, best.cards, "{position:?}");
            for &(card, value) in &values {
                assert_eq!(
                    value,
                    reference_after(&position, card),
                    "{card} in {position:?}"
                );
            }
        }
    }

    #[test]
    fn a_node_limit_gives_up_and_a_generous_one_does_not() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let deal = random_deal(&mut rng, 8);
        let position = Position::new(deal, Strain::Hearts, NORTH);
        assert_eq!(card_values_within(&position, 10), Ok(None));
        let full = card_values(&position).unwrap();
        assert_eq!(card_values_within(&position, 1 << 40), Ok(Some(full)));
    }

    #[test]
    fn agrees_with_plain_alpha_beta_on_random_deals_of_six_and_seven_cards() {
        let mut rng = ChaCha8Rng::seed_from_u64(1951);
        for round in 0..rounds(30) {
            let size = if round % 6 == 0 { 7 } else { 6 };
            let deal = random_deal(&mut rng, size);
            let strain = Strain::ALL[rng.random_range(0..5)];
            let leader = Seat(rng.random_range(0..4));
            let mut hands = [0u64; 4];
            for (seat, hand) in deal.iter() {
                hands[seat.index()] = hand.bits();
            }
            let expected = alphabeta(
                &mut hands,
                strain.trump().map(|s| s as u8),
                leader.0,
                &mut [0; 4],
                0,
                leader.0 & 1,
                -1,
                14,
            );
            assert_eq!(
                solve(&deal, strain, leader).map(i32::from),
                Ok(expected),
                "{deal:?} {strain} {leader}"
            );
        }
    }

    #[test]
    fn turning_the_table_or_renaming_suits_changes_nothing() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..40 {
            let deal = random_deal(&mut rng, 7);
            let leader = Seat(rng.random_range(0..4));
            let strain = Strain::ALL[rng.random_range(0..5)];
            let value = solve(&deal, strain, leader).unwrap();
            // Every seat moves one place clockwise, the leader with them.
            let mut turned = PerSeat::new(4);
            for seat in 0..4u8 {
                turned[Seat((seat + 1) % 4)] = deal[Seat(seat)];
            }
            assert_eq!(solve(&turned, strain, leader.left(1, 4)), Ok(value));
            // Swap spades and clubs throughout (and the trump with them).
            let swap = |set: CardSet| -> CardSet {
                set.iter()
                    .map(|c| {
                        let suit = match c.suit() {
                            crate::card::Suit::Clubs => crate::card::Suit::Spades,
                            crate::card::Suit::Spades => crate::card::Suit::Clubs,
                            s => s,
                        };
                        Card::new(c.rank(), suit)
                    })
                    .collect()
            };
            let mut swapped = PerSeat::new(4);
            for seat in 0..4u8 {
                swapped[Seat(seat)] = swap(deal[Seat(seat)]);
            }
            let swapped_strain = match strain {
                Strain::Clubs => Strain::Spades,
                Strain::Spades => Strain::Clubs,
                s => s,
            };
            assert_eq!(solve(&swapped, swapped_strain, leader), Ok(value));
            // Searched for the other side, the same lead leaves it the rest of the tricks.
            let position = Position::new(deal, strain, leader);
            let mut search = Search::new(&position);
            search.side ^= 1;
            let theirs = search.value(7, |s, target| s.trick_start(leader.0, target));
            assert_eq!(value + theirs, 7);
            let best = best_plays(&Position::new(deal, strain, leader)).unwrap();
            assert_eq!(best.tricks, value);
        }
    }

    /// Timings of full deals: `cargo test --release -p parlor-shared full_deal_timings -- --ignored --nocapture`.
    #[test]
    #[ignore = "prints timings; run in release by hand"]
    fn full_deal_timings() {
        let mut rng = ChaCha8Rng::seed_from_u64(2026);
        let mut worst = std::time::Duration::ZERO;
        let mut total = std::time::Duration::ZERO;
        let deals: usize = std::env::var("DDS_DEALS").map_or(20, |v| v.parse().unwrap());
        for i in 0..deals {
            let deal = random_deal(&mut rng, 13);
            let strain = Strain::ALL[i % 5];
            let start = std::time::Instant::now();
            let position = Position::new(deal, strain, WEST);
            let mut search = Search::new(&position);
            let tricks = search.value(13, |s, target| s.trick_start(WEST.0, target));
            let took = start.elapsed();
            assert_eq!(solve(&deal, strain, WEST), Ok(tricks));
            worst = worst.max(took);
            total += took;
            println!(
                "deal {i:2} {strain:>2} West leads: {tricks:2} tricks for EW in {took:?}, {} nodes, {} table entries",
                search.nodes,
                search.table.len()
            );
        }
        println!("mean {:?}, worst {worst:?}", total / deals as u32);
    }
}
