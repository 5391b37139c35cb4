//! The rating model: who took part in a finished match, how they placed, and how each entrant's
//! per-variant rating moves (Weng-Lin, `skillratings`). Pure: the same results in the same order
//! give the same ratings, so the board is rebuilt by replaying the stored results.
//! Each seat is a team of one but Whist's partnerships; places come from the final standing
//! (winners first, then by total, ties sharing); people are not rated, and a match with fewer than
//! two rated teams moves nobody; an entrant holding several seats plays each from its rating
//! before the match and ends with their mean, so a match counts once for it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

/// How many recent places an entry remembers for its "recent form".
pub const RECENT: usize = 10;

/// A rated player: a built-in strategy or a registered bot.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Entrant {
    /// Which kind.
    pub kind: EntrantKind,
    /// The strategy's or the bot's name.
    pub name: String,
}

/// Built into the server, or a program registered by an operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntrantKind {
    /// A built-in strategy (`random`, `heuristic`, `strong`, `uva181`): the scale's anchors.
    Builtin,
    /// A registered bot account.
    Bot,
}

impl Entrant {
    /// A built-in strategy.
    #[must_use]
    pub fn builtin(name: &str) -> Entrant {
        Entrant {
            kind: EntrantKind::Builtin,
            name: name.to_string(),
        }
    }

    /// A registered bot.
    #[must_use]
    pub fn bot(name: &str) -> Entrant {
        Entrant {
            kind: EntrantKind::Bot,
            name: name.to_string(),
        }
    }
}

/// One seat's part in a finished match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    /// The seat.
    pub seat: u8,
    /// Who played it, when rated (`None`: a person).
    pub entrant: Option<Entrant>,
    /// The seat's team (its partnership in Whist, else the seat itself).
    pub team: u8,
    /// Its place, from 1 (shared by ties).
    pub place: u32,
}

/// A finished match, as the ratings see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchResult {
    /// The variant's name.
    pub variant: String,
    /// The table it was played at.
    pub table: String,
    /// The match's number at that table.
    pub match_no: u32,
    /// When it ended, Unix milliseconds.
    pub at: i64,
    /// Every seat.
    pub places: Vec<Place>,
    /// The table was listed in the lobby. A private table's match moves ratings all the
    /// same, but its id never reaches the board.
    pub listed: bool,
}

/// The places of a finished match from its final totals: winners first, then by total.
/// `partnerships` pairs seats `i` and `i + 2`; `low_wins` ranks the lowest total first.
#[must_use]
pub fn places_of(
    totals: &[i32],
    winners: &[u8],
    partnerships: bool,
    low_wins: bool,
    entrants: Vec<Option<Entrant>>,
) -> Vec<Place> {
    let team_of = |seat: usize| if partnerships { seat % 2 } else { seat } as u8;
    // Each team's standing: (not a winner, total in the better-first direction).
    let standing = |seat: usize| {
        let won = winners
            .iter()
            .any(|&w| team_of(w as usize) == team_of(seat));
        let total = totals[seat];
        (!won, if low_wins { total } else { -total })
    };
    entrants
        .into_iter()
        .enumerate()
        .map(|(seat, entrant)| {
            let mine = standing(seat);
            let better = (0..totals.len())
                .filter(|&other| team_of(other) != team_of(seat) && standing(other) < mine)
                .map(team_of)
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            Place {
                seat: seat as u8,
                entrant,
                team: team_of(seat),
                place: better as u32 + 1,
            }
        })
        .collect()
}

/// One point of an entry's rating history.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// When, Unix milliseconds.
    pub at: i64,
    /// The rating after that match.
    pub rating: f64,
    /// Its uncertainty (one standard deviation).
    pub uncertainty: f64,
}

/// One entrant's rating in one variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Who.
    pub entrant: Entrant,
    /// The rating's mean.
    pub rating: f64,
    /// One standard deviation of it.
    pub uncertainty: f64,
    /// Rated matches played.
    pub matches: u32,
    /// The places of its last [`RECENT`] matches, oldest first (from 1; `of` seats/teams).
    pub recent: Vec<RecentPlace>,
    /// The rating after each match, oldest first.
    pub history: Vec<Point>,
}

/// A place in a recent match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecentPlace {
    /// The table, when it was listed (a private table's id is its key, never shown).
    pub table: Option<String>,
    /// The match at it.
    pub match_no: u32,
    /// When it ended.
    pub at: i64,
    /// Its place (its best seat's, when it held several).
    pub place: u32,
    /// Out of how many teams.
    pub of: u32,
}

impl Entry {
    fn new(entrant: Entrant) -> Entry {
        let start = WengLinRating::new();
        Entry {
            entrant,
            rating: start.rating,
            uncertainty: start.uncertainty,
            matches: 0,
            recent: Vec::new(),
            history: Vec::new(),
        }
    }

    fn weng_lin(&self) -> WengLinRating {
        WengLinRating {
            rating: self.rating,
            uncertainty: self.uncertainty,
        }
    }
}

/// Every entrant's rating, per variant.
#[derive(Debug, Clone, Default)]
pub struct Board {
    /// By variant, then by entrant.
    variants: BTreeMap<String, BTreeMap<Entrant, Entry>>,
    /// Results applied.
    applied: u64,
}

impl Board {
    /// Applies one finished match; returns whether anyone's rating moved.
    pub fn apply(&mut self, result: &MatchResult) -> bool {
        self.applied += 1;
        // The rated members of each team, by team.
        let mut teams: BTreeMap<u8, (u32, Vec<Entrant>)> = BTreeMap::new();
        for place in &result.places {
            let team = teams.entry(place.team).or_insert((place.place, Vec::new()));
            team.0 = team.0.min(place.place);
            if let Some(entrant) = &place.entrant {
                team.1.push(entrant.clone());
            }
        }
        let of = teams.len() as u32;
        teams.retain(|_, (_, members)| !members.is_empty());
        if teams.len() < 2 {
            return false;
        }
        let board = self.variants.entry(result.variant.clone()).or_default();
        let before: Vec<(u32, Vec<WengLinRating>)> = teams
            .values()
            .map(|(place, members)| {
                let ratings = members
                    .iter()
                    .map(|m| {
                        board
                            .get(m)
                            .map_or_else(WengLinRating::new, Entry::weng_lin)
                    })
                    .collect();
                (*place, ratings)
            })
            .collect();
        let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = before
            .iter()
            .map(|(place, ratings)| (ratings.as_slice(), MultiTeamOutcome::new(*place as usize)))
            .collect();
        let after = weng_lin_multi_team(&input, &WengLinConfig::new());
        // Each entrant's new ratings over all its seats, and its best place.
        let mut moved: BTreeMap<Entrant, (Vec<WengLinRating>, u32)> = BTreeMap::new();
        for ((place, members), new) in teams.values().zip(after) {
            for (member, rating) in members.iter().zip(new) {
                let slot = moved
                    .entry(member.clone())
                    .or_insert((Vec::new(), u32::MAX));
                slot.0.push(rating);
                slot.1 = slot.1.min(*place);
            }
        }
        for (entrant, (ratings, place)) in moved {
            let n = ratings.len() as f64;
            let entry = board
                .entry(entrant.clone())
                .or_insert_with(|| Entry::new(entrant));
            entry.rating = ratings.iter().map(|r| r.rating).sum::<f64>() / n;
            entry.uncertainty = ratings.iter().map(|r| r.uncertainty).sum::<f64>() / n;
            entry.matches += 1;
            entry.history.push(Point {
                at: result.at,
                rating: entry.rating,
                uncertainty: entry.uncertainty,
            });
            if entry.recent.len() == RECENT {
                entry.recent.remove(0);
            }
            entry.recent.push(RecentPlace {
                table: result.listed.then(|| result.table.clone()),
                match_no: result.match_no,
                at: result.at,
                place,
                of,
            });
        }
        true
    }

    /// A variant's entries, best first (by rating, then fewer matches, then name).
    #[must_use]
    pub fn standings(&self, variant: &str) -> Vec<&Entry> {
        let mut entries: Vec<&Entry> = self
            .variants
            .get(variant)
            .map(|board| board.values().collect())
            .unwrap_or_default();
        entries.sort_by(|a, b| {
            b.rating
                .total_cmp(&a.rating)
                .then(a.entrant.cmp(&b.entrant))
        });
        entries
    }

    /// One entrant's entry in a variant.
    #[must_use]
    pub fn entry(&self, variant: &str, entrant: &Entrant) -> Option<&Entry> {
        self.variants.get(variant)?.get(entrant)
    }

    /// How many results were applied (rated or not).
    #[must_use]
    pub fn applied(&self) -> u64 {
        self.applied
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn four(names: [Option<&str>; 4]) -> Vec<Option<Entrant>> {
        names.iter().map(|n| n.map(Entrant::builtin)).collect()
    }

    fn result(places: Vec<Place>) -> MatchResult {
        MatchResult {
            variant: "hearts".into(),
            table: "t".into(),
            match_no: 1,
            at: 5,
            places,
            listed: true,
        }
    }

    #[test]
    fn places_follow_winners_then_totals_in_the_variants_direction() {
        let low = places_of(&[40, 101, 12, 40], &[2], false, true, four([None; 4]));
        let got: Vec<u32> = low.iter().map(|p| p.place).collect();
        assert_eq!(got, [2, 4, 1, 2]);
        let high = places_of(&[3, 10, 7, 10], &[1, 3], false, false, four([None; 4]));
        let got: Vec<u32> = high.iter().map(|p| p.place).collect();
        assert_eq!(got, [4, 1, 3, 1]);
    }

    #[test]
    fn partners_share_a_team_and_a_place() {
        let whist = places_of(&[5, 3, 5, 3], &[0, 2], true, false, four([None; 4]));
        let got: Vec<(u8, u32)> = whist.iter().map(|p| (p.team, p.place)).collect();
        assert_eq!(got, [(0, 1), (1, 2), (0, 1), (1, 2)]);
    }

    #[test]
    fn winners_move_up_losers_down_and_people_are_not_rated() {
        let mut board = Board::default();
        let entrants = four([Some("strong"), None, Some("random"), Some("heuristic")]);
        let places = places_of(&[10, 20, 90, 50], &[0], false, true, entrants);
        assert!(board.apply(&result(places)));
        let names: Vec<&str> = board
            .standings("hearts")
            .iter()
            .map(|e| e.entrant.name.as_str())
            .collect();
        assert_eq!(names, ["strong", "heuristic", "random"]);
        let strong = board.entry("hearts", &Entrant::builtin("strong")).unwrap();
        assert!(strong.rating > 25.0 && strong.uncertainty < 25.0 / 3.0);
        assert_eq!(strong.recent[0].place, 1);
        assert_eq!(strong.recent[0].of, 4);
        assert_eq!(strong.history.len(), 1);
    }

    #[test]
    fn spades_partners_each_get_their_sides_result() {
        let spades = parlor_shared::Variant::Spades;
        let partnerships = spades.facts().partnerships;
        assert!(partnerships, "spades is rated by partnership");
        let euchre = parlor_shared::Variant::Euchre.facts();
        assert!(euchre.partnerships, "so is euchre");
        assert!(
            parlor_shared::Variant::Bridge.facts().partnerships,
            "and bridge"
        );
        // North/South (strong and heuristic) reach the target; East/West are two randoms.
        let entrants = four([
            Some("strong"),
            Some("random"),
            Some("heuristic"),
            Some("random"),
        ]);
        let places = places_of(
            &[512, 230, 512, 230],
            &[0, 2],
            partnerships,
            false,
            entrants,
        );
        let got: Vec<(u8, u32)> = places.iter().map(|p| (p.team, p.place)).collect();
        assert_eq!(got, [(0, 1), (1, 2), (0, 1), (1, 2)]);
        let mut board = Board::default();
        board.apply(&MatchResult {
            variant: spades.to_string(),
            ..result(places)
        });
        let entry = |name: &str| {
            board
                .entry("spades", &Entrant::builtin(name))
                .cloned()
                .unwrap()
        };
        let (strong, heuristic, random) = (entry("strong"), entry("heuristic"), entry("random"));
        // Both winners move up by the same step from the same start; the losing side's one
        // entrant counts the match once, from its two seats' shared result.
        assert!(strong.rating > 25.0 && heuristic.rating > 25.0);
        assert!((strong.rating - heuristic.rating).abs() < 1e-9);
        assert!(random.rating < 25.0);
        assert_eq!(random.matches, 1);
        for e in [&strong, &heuristic, &random] {
            assert_eq!(e.recent[0].of, 2, "two sides, not four seats");
        }
        assert_eq!(strong.recent[0].place, 1);
        assert_eq!(random.recent[0].place, 2);
    }

    #[test]
    fn a_match_with_one_rated_team_moves_nobody() {
        let mut board = Board::default();
        let places = places_of(
            &[1, 2, 3, 4],
            &[0],
            false,
            true,
            four([Some("strong"), None, None, None]),
        );
        assert!(!board.apply(&result(places)));
        assert!(board.standings("hearts").is_empty());
    }

    #[test]
    fn one_entrant_in_several_seats_counts_the_match_once() {
        let mut board = Board::default();
        let entrants = four([
            Some("strong"),
            Some("heuristic"),
            Some("heuristic"),
            Some("heuristic"),
        ]);
        let places = places_of(&[0, 30, 40, 50], &[0], false, true, entrants);
        board.apply(&result(places));
        let heuristic = board
            .entry("hearts", &Entrant::builtin("heuristic"))
            .unwrap();
        assert_eq!(heuristic.matches, 1);
        assert!(heuristic.rating < 25.0);
        assert_eq!(heuristic.recent[0].place, 2, "its best seat's place");
    }

    #[test]
    fn the_same_results_in_the_same_order_give_the_same_board() {
        let run = || {
            let mut board = Board::default();
            for i in 0..20 {
                let entrants = four([Some("strong"), Some("random"), Some("heuristic"), None]);
                let totals = [i % 7, (i * 3) % 11, (i * 5) % 13, 50];
                let places = places_of(&totals, &[0], false, true, entrants);
                board.apply(&result(places));
            }
            board
                .standings("hearts")
                .iter()
                .map(|e| (e.entrant.name.clone(), e.rating.to_bits()))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(), run());
    }
}
