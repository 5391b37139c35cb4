//! The arena's pure parts: the schedule (seats rotated, deals duplicated), one headless match,
//! and the statistics (means and 95% confidence intervals). Threads, progress and printing
//! live in the server's `parlor arena`.

use serde::Serialize;

use crate::bots::bid_outcome::{self, BidOutcome};
use crate::bots::{HeuristicBot, RandomBot, Strategy};
use crate::rules::{Action, Event, Game, Options, OptionsError, Variant};
use crate::seat::{PerSeat, Seat};
use crate::view::PlayerView;

/// An outside player: a program driven through an adapter (not a built-in [`Strategy`]). It
/// sees the events of its seat as they happen and is asked for moves with its view.
pub trait Player: Send {
    /// The move for `view` (should be legal; an illegal one is replaced by a built-in move,
    /// except in `tricks` where the engine's bad-card penalty applies).
    fn act(&mut self, view: &PlayerView) -> Action;
    /// The events its seat may see, in order (the opening deal included).
    fn observe(&mut self, _events: &[Event]) {}
    /// Moves it failed to make itself (late, illegal or missing answers) that a built-in
    /// move or the table's penalty replaced; reported with the results.
    fn failures(&self) -> u32 {
        0
    }
}

/// Who sits in a seat.
pub enum Seated {
    /// Uniformly random moves, taken from the legal moves without building a view.
    Random(Box<RandomBot>),
    /// A built-in strategy, given its seat's view.
    Bot(Box<dyn Strategy>),
    /// An outside player.
    Player(Box<dyn Player>),
}

impl Seated {
    /// A built-in strategy by name (`random` takes the fast path).
    #[must_use]
    pub fn builtin(name: &str, variant: Variant, seed: u64) -> Option<Seated> {
        if name == "random" {
            return Some(Seated::Random(Box::new(RandomBot::new(seed))));
        }
        crate::bots::strategy(name, variant, seed).map(Seated::Bot)
    }
}

/// One game of the schedule: which deal and which bot sits where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// The match seed (shared by every rotation of one deal).
    pub seed: u64,
    /// For each seat, the index of the bot (in the `--bots` list) sitting there.
    pub seating: Vec<usize>,
}

/// The `index`th game: deal `index / n` (seed `base + deal`) played with the bot list rotated
/// `index % n` seats, so every `n` consecutive games replay one deal with each bot in each
/// seat once.
#[must_use]
pub fn fixture(base: u64, index: u64, players: usize) -> Fixture {
    let n = players as u64;
    let rotation = (index % n) as usize;
    Fixture {
        seed: base.wrapping_add(index / n),
        seating: (0..players).map(|s| (s + rotation) % players).collect(),
    }
}

/// A seed for the bot in `seat` of game `index`, distinct per game and seat.
#[must_use]
pub fn bot_seed(base: u64, index: u64, seat: usize) -> u64 {
    // SplitMix64 finalizer over the triple.
    let mut z = base ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (seat as u64) << 56;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What one match produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRecord {
    /// Points per hand per seat (the variant's score sheet).
    pub points: Vec<PerSeat<i32>>,
    /// The winners (shared wins list several seats; whist lists both partners).
    pub winners: Vec<Seat>,
    /// Illegal moves replaced by a built-in move, per seat.
    pub fallbacks: PerSeat<u32>,
    /// How each seat's bid went, per hand (empty in the games without bids).
    pub bids: Vec<PerSeat<BidOutcome>>,
    /// North-South's duplicate score of each board (Bridge with duplicate scoring; empty
    /// elsewhere): the same boards played with the pairs swapped compare in IMPs.
    pub boards: Vec<i32>,
}

/// Plays one whole match of `variant` from `seed` with `seats` (one per seat).
pub fn play_match(
    variant: Variant,
    options: &Options,
    seed: u64,
    seats: &mut [Seated],
) -> Result<MatchRecord, OptionsError> {
    let mut game = Game::new(variant, options, seed)?;
    let n = game.players();
    let mut fallbacks = PerSeat::new(n);
    // Only outside players watch events; random and built-in bots skip the filtering.
    let watched = seats.iter().any(|s| matches!(s, Seated::Player(_)));
    let mut events = if watched {
        game.opening_events()
    } else {
        Vec::with_capacity(64)
    };
    if watched {
        notify(seats, &events);
    }
    while !game.is_over() {
        let seat = game.to_act().iter().next().expect("someone acts");
        if let Seated::Random(bot) = &mut seats[seat.index()] {
            events.clear();
            bot.act_on(&mut game, seat, &mut events)
                .expect("random moves are legal");
            if watched {
                notify(seats, &events);
            }
            continue;
        }
        let action = match &mut seats[seat.index()] {
            Seated::Random(_) => unreachable!("random seats moved above"),
            Seated::Bot(bot) => bot.choose(&PlayerView::of(&game, Some(seat))),
            Seated::Player(p) => p.act(&PlayerView::of(&game, Some(seat))),
        };
        events.clear();
        if game.apply_into(seat, &action, &mut events).is_err() {
            fallbacks[seat] += 1;
            let view = PlayerView::of(&game, Some(seat));
            let Some(action) = HeuristicBot::fallback(&view) else {
                continue;
            };
            events.clear();
            game.apply_into(seat, &action, &mut events)
                .expect("the heuristic plays legally");
        }
        if watched {
            notify(seats, &events);
        }
    }
    for (i, seated) in seats.iter().enumerate() {
        if let Seated::Player(p) = seated {
            fallbacks[Seat(i as u8)] += p.failures();
        }
    }
    let partnerships = variant.facts().partnerships;
    let duplicate = !game.rules().rubber;
    Ok(MatchRecord {
        boards: game
            .history()
            .iter()
            .filter_map(|h| h.board.as_ref().filter(|_| duplicate).map(|b| b.score))
            .collect(),
        points: game.history().iter().map(|h| h.points).collect(),
        winners: game.winners().to_vec(),
        fallbacks,
        bids: game
            .history()
            .iter()
            .filter_map(|h| bid_outcome::outcomes(h, partnerships))
            .collect(),
    })
}

/// Hands each outside player the events its seat may see.
fn notify(seats: &mut [Seated], events: &[Event]) {
    for (i, seated) in seats.iter_mut().enumerate() {
        if let Seated::Player(p) = seated {
            let seat = Some(Seat(i as u8));
            let mine: Vec<Event> = events
                .iter()
                .filter(|e| e.visible_to(seat))
                .cloned()
                .collect();
            if !mine.is_empty() {
                p.observe(&mine);
            }
        }
    }
}

/// A mean with its 95% confidence interval (normal approximation).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The sample mean.
    pub mean: f64,
    /// Lower bound of the 95% interval.
    pub low: f64,
    /// Upper bound of the 95% interval.
    pub high: f64,
}

impl Estimate {
    /// True when the two intervals do not overlap.
    #[must_use]
    pub fn separated_from(&self, other: &Estimate) -> bool {
        self.high < other.low || other.high < self.low
    }
}

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Mean and 95% interval of a sample given by its count, sum and sum of squares.
#[must_use]
pub fn mean_ci(count: u64, sum: f64, sum_sq: f64) -> Estimate {
    if count == 0 {
        return Estimate {
            mean: 0.0,
            low: 0.0,
            high: 0.0,
        };
    }
    let n = count as f64;
    let mean = sum / n;
    let var = if count > 1 {
        ((sum_sq - n * mean * mean) / (n - 1.0)).max(0.0)
    } else {
        0.0
    };
    let half = Z95 * (var / n).sqrt();
    Estimate {
        mean,
        low: mean - half,
        high: mean + half,
    }
}

/// A proportion `wins / trials` with its Wilson 95% interval (sound near 0 and 1).
#[must_use]
pub fn wilson(wins: f64, trials: f64) -> Estimate {
    if trials <= 0.0 {
        return Estimate {
            mean: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let p = wins / trials;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / trials;
    let centre = (p + z2 / (2.0 * trials)) / denom;
    let half = Z95 * (p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)).sqrt() / denom;
    Estimate {
        mean: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// Running totals for one bot over every seat it occupied.
#[derive(Clone, Debug, Default)]
struct Tally {
    seat_matches: u64,
    wins: u64,
    hands: u64,
    sum: f64,
    sum_sq: f64,
    fallbacks: u64,
    bid_hands: u64,
    made: u64,
    nils: u64,
    nils_made: u64,
    bags: f64,
    bags_sq: f64,
    imp_boards: u64,
    imps: f64,
    imps_sq: f64,
    mp_boards: u64,
    mp: f64,
    mp_sq: f64,
}

/// One bot's results.
#[derive(Clone, Debug, Serialize)]
pub struct BotReport {
    /// The bot as named on the command line.
    pub bot: String,
    /// Seat-matches it played (a bot named twice counts twice per match).
    pub seat_matches: u64,
    /// Seat-matches it won (shared wins count for each winner).
    pub wins: u64,
    /// The share of seat-matches won, with its 95% interval.
    pub win_share: Estimate,
    /// Hands it played (per seat).
    pub hands: u64,
    /// Mean points per hand, with its 95% interval.
    pub points_per_hand: Estimate,
    /// Illegal moves replaced by a built-in move.
    pub fallbacks: u64,
    /// How its bids went, in the games that bid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bidding: Option<BidReport>,
    /// Bridge's duplicate: mean IMPs per board against the other pair on the same boards,
    /// with its 95% interval; `None` elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub imps_per_board: Option<Estimate>,
    /// Bridge's duplicate: mean matchpoint percentage per board, each table's result on a
    /// board compared with every other table that played the deal, with its 95% interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matchpoints: Option<Estimate>,
}

/// One bot's bids, in the games that bid (spades, ohhell).
#[derive(Clone, Debug, Serialize)]
pub struct BidReport {
    /// Hands it bid (per seat).
    pub hands: u64,
    /// The share of its bids made (Spades: the side's contract, or its own nil; Oh Hell:
    /// exactly), with its Wilson 95% interval.
    pub made: Estimate,
    /// Its nil bids.
    pub nil_bids: u64,
    /// Those it made (took no trick).
    pub nils_made: u64,
    /// `nils_made / nil_bids` with its Wilson 95% interval; `None` without a nil bid.
    pub nil_success: Option<Estimate>,
    /// Mean bags per hand (Spades: its side's; Oh Hell: its tricks over its bid), with its
    /// 95% interval.
    pub bags_per_hand: Estimate,
}

/// Aggregates finished games per distinct bot name. `games` pairs each schedule entry with
/// its record.
#[must_use]
pub fn summarize(bots: &[String], games: &[(Fixture, MatchRecord)]) -> Vec<BotReport> {
    let mut names: Vec<&String> = Vec::new();
    for b in bots {
        if !names.contains(&b) {
            names.push(b);
        }
    }
    let mut tallies = vec![Tally::default(); names.len()];
    for (fixture, record) in games {
        for (seat, &bot) in fixture.seating.iter().enumerate() {
            let k = names
                .iter()
                .position(|n| **n == bots[bot])
                .expect("a listed bot");
            let t = &mut tallies[k];
            let s = Seat(seat as u8);
            t.seat_matches += 1;
            t.wins += u64::from(record.winners.contains(&s));
            t.fallbacks += u64::from(record.fallbacks[s]);
            for hand in &record.points {
                let p = f64::from(hand[s]);
                t.hands += 1;
                t.sum += p;
                t.sum_sq += p * p;
            }
            for hand in &record.bids {
                let o = hand[s];
                t.bid_hands += 1;
                t.made += u64::from(o.made);
                t.nils += u64::from(o.nil.is_some());
                t.nils_made += u64::from(o.nil == Some(true));
                let bags = f64::from(o.bags);
                t.bags += bags;
                t.bags_sq += bags * bags;
            }
        }
    }
    for (bot, imps) in duplicate_imps(bots, games) {
        let k = names.iter().position(|n| **n == bot).expect("a listed bot");
        let t = &mut tallies[k];
        t.imp_boards += 1;
        t.imps += f64::from(imps);
        t.imps_sq += f64::from(imps * imps);
    }
    for (bot, percent) in duplicate_matchpoints(bots, games) {
        let k = names.iter().position(|n| **n == bot).expect("a listed bot");
        let t = &mut tallies[k];
        t.mp_boards += 1;
        t.mp += percent;
        t.mp_sq += percent * percent;
    }
    names
        .iter()
        .zip(tallies)
        .map(|(name, t)| BotReport {
            bot: (*name).clone(),
            seat_matches: t.seat_matches,
            wins: t.wins,
            win_share: wilson(t.wins as f64, t.seat_matches as f64),
            hands: t.hands,
            points_per_hand: mean_ci(t.hands, t.sum, t.sum_sq),
            fallbacks: t.fallbacks,
            bidding: (t.bid_hands > 0).then(|| BidReport {
                hands: t.bid_hands,
                made: wilson(t.made as f64, t.bid_hands as f64),
                nil_bids: t.nils,
                nils_made: t.nils_made,
                nil_success: (t.nils > 0).then(|| wilson(t.nils_made as f64, t.nils as f64)),
                bags_per_hand: mean_ci(t.bid_hands, t.bags, t.bags_sq),
            }),
            imps_per_board: (t.imp_boards > 0).then(|| mean_ci(t.imp_boards, t.imps, t.imps_sq)),
            matchpoints: (t.mp_boards > 0).then(|| mean_ci(t.mp_boards, t.mp, t.mp_sq)),
        })
        .collect()
}

/// The bots of a game's two partnerships (North-South, East-West) when each is one bot.
fn partnerships(bots: &[String], fixture: &Fixture) -> Option<(String, String)> {
    let s = &fixture.seating;
    (s.len() == 4 && bots[s[0]] == bots[s[2]] && bots[s[1]] == bots[s[3]])
        .then(|| (bots[s[0]].clone(), bots[s[1]].clone()))
}

/// Duplicate Bridge: each board of a deal played by pair `x` North-South against `y` is
/// compared with the same board played by `y` North-South against `x` (the schedule's next
/// rotation), in IMPs; each comparison gives `x` its IMPs and `y` the opposite. Returns (bot,
/// IMPs) per pair per board compared.
fn duplicate_imps(bots: &[String], games: &[(Fixture, MatchRecord)]) -> Vec<(String, i32)> {
    let pairs = |f: &Fixture| partnerships(bots, f);
    let mut out = Vec::new();
    let mut used = vec![false; games.len()];
    for (i, (here, record)) in games.iter().enumerate() {
        let Some((x, y)) = pairs(here) else { continue };
        if used[i] || x == y || record.boards.is_empty() {
            continue;
        }
        // The first unused game of the same deal with the pairs swapped.
        let other = games.iter().enumerate().position(|(j, (there, r))| {
            !used[j] && j != i && there.seed == here.seed && !r.boards.is_empty() && {
                pairs(there) == Some((y.clone(), x.clone()))
            }
        });
        let Some(j) = other else { continue };
        used[i] = true;
        used[j] = true;
        for (&ns_here, &ns_there) in record.boards.iter().zip(&games[j].1.boards) {
            let imps = crate::bridge::imps::board_imps(ns_here, ns_there);
            out.push((x.clone(), imps));
            out.push((y.clone(), -imps));
        }
    }
    out
}

/// Duplicate Bridge by matchpoints: every game of a deal whose partnerships are each one bot
/// is a table; each board's North-South score is compared with those of every other table,
/// and each pair gets its matchpoint percentage. Returns (bot, percentage) per pair per
/// table per board; a deal played at one table compares with nothing.
fn duplicate_matchpoints(bots: &[String], games: &[(Fixture, MatchRecord)]) -> Vec<(String, f64)> {
    use crate::bridge::matchpoints::{east_west, matchpoints, percentage};
    let pairs = |f: &Fixture| partnerships(bots, f);
    let mut seeds: Vec<u64> = games.iter().map(|(f, _)| f.seed).collect();
    seeds.sort_unstable();
    seeds.dedup();
    let mut out = Vec::new();
    for seed in seeds {
        let tables: Vec<((String, String), &[i32])> = games
            .iter()
            .filter(|(f, r)| f.seed == seed && !r.boards.is_empty())
            .filter_map(|(f, r)| Some((pairs(f)?, r.boards.as_slice())))
            .collect();
        if tables.len() < 2 {
            continue;
        }
        let boards = tables.iter().map(|(_, b)| b.len()).min().unwrap_or(0);
        for board in 0..boards {
            let scores: Vec<i32> = tables.iter().map(|(_, b)| b[board]).collect();
            let ns = matchpoints(&scores);
            let ew = east_west(&ns);
            for (((north_south, east_west_pair), _), (n, e)) in
                tables.iter().zip(ns.iter().zip(&ew))
            {
                out.push((north_south.clone(), percentage(*n, tables.len())));
                out.push((east_west_pair.clone(), percentage(*e, tables.len())));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_deal_is_replayed_with_each_bot_in_each_seat_once() {
        let n = 4;
        for deal in 0..3u64 {
            let games: Vec<Fixture> = (0..n as u64)
                .map(|r| fixture(10, deal * 4 + r, n))
                .collect();
            assert!(games.iter().all(|g| g.seed == 10 + deal));
            for seat in 0..n {
                let mut bots: Vec<usize> = games.iter().map(|g| g.seating[seat]).collect();
                bots.sort_unstable();
                assert_eq!(bots, vec![0, 1, 2, 3], "seat {seat} sees every bot");
            }
            for g in &games {
                let mut s = g.seating.clone();
                s.sort_unstable();
                assert_eq!(s, vec![0, 1, 2, 3], "each bot sits once per game");
            }
        }
        assert_eq!(fixture(0, 0, 5).seating, vec![0, 1, 2, 3, 4]);
        assert_eq!(fixture(0, 7, 5).seating, vec![2, 3, 4, 0, 1]);
    }

    #[test]
    fn the_same_seed_deals_the_same_cards_whoever_sits_where() {
        let a = Game::new(Variant::Hearts, &Options::default(), 5).unwrap();
        let b = Game::new(Variant::Hearts, &Options::default(), 5).unwrap();
        for s in Seat::all(4) {
            assert_eq!(a.hand(s), b.hand(s));
        }
    }

    #[test]
    fn confidence_intervals_match_hand_computed_values() {
        // 1, 2, 3, 4, 5: mean 3, sample variance 2.5, half width 1.96 * sqrt(2.5 / 5).
        let e = mean_ci(5, 15.0, 55.0);
        let half = Z95 * (0.5f64).sqrt();
        assert!((e.mean - 3.0).abs() < 1e-12);
        assert!((e.high - (3.0 + half)).abs() < 1e-12);
        assert!((e.low - (3.0 - half)).abs() < 1e-12);
        // Wilson for 50/100: centre 0.5, bounds about 0.4038 and 0.5962.
        let w = wilson(50.0, 100.0);
        assert!((w.low - 0.403_8).abs() < 1e-3, "{w:?}");
        assert!((w.high - 0.596_2).abs() < 1e-3, "{w:?}");
        let zero = wilson(0.0, 20.0);
        assert_eq!(zero.low, 0.0);
        assert!(zero.high > 0.15 && zero.high < 0.17, "{zero:?}");
        assert!(!e.separated_from(&mean_ci(5, 16.0, 60.0)));
        assert!(e.separated_from(&mean_ci(5, 100.0, 2000.5)));
    }

    #[test]
    fn summaries_group_seats_by_bot_name() {
        let bots: Vec<String> = ["a", "b", "b", "b"].iter().map(|s| s.to_string()).collect();
        let mut seats: Vec<Seated> = (0..4)
            .map(|i| Seated::builtin("random", Variant::Hearts, i).unwrap())
            .collect();
        let record = play_match(Variant::Hearts, &Options::default(), 1, &mut seats).unwrap();
        let hands = record.points.len() as u64;
        let games = vec![
            (fixture(1, 0, 4), record.clone()),
            (fixture(1, 1, 4), record),
        ];
        let report = summarize(&bots, &games);
        assert_eq!(report.len(), 2);
        assert_eq!(report[0].seat_matches, 2);
        assert_eq!(report[1].seat_matches, 6);
        assert_eq!(report[0].hands, 2 * hands);
        let wins: u64 = report.iter().map(|r| r.wins).sum();
        assert!(wins >= 2, "someone wins each match");
        assert!(
            report.iter().all(|r| r.bidding.is_none()),
            "hearts has no bids"
        );
    }

    /// One seat's outcome in a hand.
    fn bid(made: bool, nil: Option<bool>, bags: u8) -> BidOutcome {
        BidOutcome { made, nil, bags }
    }

    #[test]
    fn bidding_reports_count_nils_and_bags_per_bot() {
        // Partnerships a (seats 0 and 2) and b (1 and 3), two hands.
        let hands = vec![
            PerSeat::from_slice(&[
                bid(false, Some(false), 1),
                bid(true, None, 4),
                bid(false, None, 1),
                bid(true, None, 4),
            ]),
            PerSeat::from_slice(&[
                bid(true, None, 2),
                bid(true, None, 0),
                bid(true, Some(true), 2),
                bid(true, None, 0),
            ]),
        ];
        let record = MatchRecord {
            points: vec![PerSeat::new(4); 2],
            winners: vec![Seat(1), Seat(3)],
            fallbacks: PerSeat::new(4),
            bids: hands,
            boards: Vec::new(),
        };
        let bots: Vec<String> = ["a", "b", "a", "b"].iter().map(|s| s.to_string()).collect();
        let report = summarize(&bots, &[(fixture(1, 0, 4), record)]);
        let a = report[0].bidding.as_ref().unwrap();
        let b = report[1].bidding.as_ref().unwrap();
        assert_eq!((a.hands, b.hands), (4, 4));
        // North failed a nil, South made one; East and West bid none.
        assert_eq!((a.nil_bids, a.nils_made), (2, 1));
        assert!((a.nil_success.unwrap().mean - 0.5).abs() < 1e-12);
        assert_eq!((b.nil_bids, b.nil_success), (0, None));
        // Bags: 1 + 1 + 2 + 2 for North/South's seat-hands, 4 + 4 + 0 + 0 for East/West's.
        assert!((a.bags_per_hand.mean - 1.5).abs() < 1e-12);
        assert!((b.bags_per_hand.mean - 2.0).abs() < 1e-12);
        assert!((a.made.mean - 0.5).abs() < 1e-12);
        assert!((b.made.mean - 1.0).abs() < 1e-12);
    }

    /// A Bridge match's record with only its boards' North-South scores.
    fn record(boards: Vec<i32>) -> MatchRecord {
        MatchRecord {
            points: Vec::new(),
            winners: Vec::new(),
            fallbacks: PerSeat::new(4),
            bids: Vec::new(),
            boards,
        }
    }

    #[test]
    fn duplicate_boards_compare_the_pairs_in_imps() {
        let bots: Vec<String> = ["a", "b", "a", "b"].iter().map(|s| s.to_string()).collect();
        // The same deal: a North-South first (620, then -50), b North-South next (420, 100).
        let games = [
            (fixture(1, 0, 4), record(vec![620, -50])),
            (fixture(1, 1, 4), record(vec![420, 100])),
        ];
        let report = summarize(&bots, &games);
        // 620 - 420 = 200: 5 IMPs to a; -50 - 100 = -150: 4 IMPs to b.
        let a = report[0].imps_per_board.unwrap();
        let b = report[1].imps_per_board.unwrap();
        assert!((a.mean - 0.5).abs() < 1e-12, "{a:?}");
        assert!((b.mean + 0.5).abs() < 1e-12, "{b:?}");
        // Not a duplicate: a game of another deal compares with nothing.
        let lone = [(fixture(1, 0, 4), record(vec![620]))];
        assert!(summarize(&bots, &lone)[0].imps_per_board.is_none());
        assert!(summarize(&bots, &lone)[0].matchpoints.is_none());
    }

    #[test]
    fn duplicate_boards_score_by_matchpoints_across_every_table_of_the_deal() {
        let bots: Vec<String> = ["a", "b", "a", "b"].iter().map(|s| s.to_string()).collect();
        // Four tables of one deal, one board: a sits North-South at two (620, 620), b at
        // the other two (420, 650).
        let games: Vec<_> = [620, 420, 620, 650]
            .into_iter()
            .enumerate()
            .map(|(i, ns)| (fixture(1, i as u64, 4), record(vec![ns])))
            .collect();
        assert_eq!(games[0].0.seating[0], 0, "a North-South at the first table");
        assert_eq!(games[1].0.seating[0], 1, "b North-South at the second");
        let report = summarize(&bots, &games);
        // North-South matchpoints (top 6): 620 beats 420 and ties 620: 3; 420: 0; 650: 6.
        // a: 3/6 and 3/6 North-South, 6/6 and 0/6 East-West; b the rest.
        let a = report[0].matchpoints.unwrap();
        let b = report[1].matchpoints.unwrap();
        assert!((a.mean - 50.0).abs() < 1e-9, "{a:?}");
        assert!((b.mean - 50.0).abs() < 1e-9, "{b:?}");
        // One more board where a's North-South results top the room.
        let games: Vec<_> = [(620, 100), (420, 50), (620, 100), (650, 0)]
            .into_iter()
            .enumerate()
            .map(|(i, (x, y))| (fixture(1, i as u64, 4), record(vec![x, y])))
            .collect();
        let a = summarize(&bots, &games)[0].matchpoints.unwrap();
        // Board 2, North-South: 100 (a) 5, 50 (b) 2, 100 (a) 5, 0 (b) 0; a East-West at the
        // b tables gets 6 - 2 and 6 - 0. a: (5 + 5 + 4 + 6) / 24 = 20/24 on board 2.
        assert!(
            (a.mean - (50.0 + 100.0 * 20.0 / 24.0) / 2.0).abs() < 1e-9,
            "{a:?}"
        );
    }
}
