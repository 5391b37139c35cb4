//! Who plays a ladder match: the registered bots online for the variant first, then built-in
//! strategies for the seats left over.
//!
//! Pure: it is given the names and the round, and chooses; the ladder asks the bot directory
//! who is online and how many tables each still takes.

use parlor_shared::Variant;
use parlor_shared::bots::strategy;

/// One player in a ladder match.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Entrant {
    /// A built-in strategy, by name (`strong:400` too).
    Builtin(String),
    /// A registered bot that is online, by account name: it is invited to its seat.
    Remote(String),
}

impl Entrant {
    /// The name, as the logs show it.
    #[must_use]
    pub fn name(&self) -> &str {
        match self {
            Entrant::Builtin(name) | Entrant::Remote(name) => name,
        }
    }
}

/// The built-in strategies of `strategies` that `variant` can seat.
#[must_use]
pub fn usable(variant: Variant, strategies: &[String]) -> Vec<String> {
    strategies
        .iter()
        .filter(|s| strategy(s, variant, 0).is_some())
        .cloned()
        .collect()
}

/// One entrant per seat of `variant`: the online bots `remotes` first (when there are more
/// than seats, a window of them moving `round` places along, so each gets its turn), then the
/// built-in `strategies` the variant knows, cycling from `round` places along so every
/// pairing comes up in turn. Empty when the seats cannot all be filled, or only by one
/// player.
#[must_use]
pub fn entrants_for(
    variant: Variant,
    strategies: &[String],
    remotes: &[String],
    round: u64,
) -> Vec<Entrant> {
    let players = usize::from(variant.players());
    let round = usize::try_from(round).unwrap_or(usize::MAX);
    let mut entrants: Vec<Entrant> = if remotes.len() > players {
        (0..players)
            .map(|i| Entrant::Remote(remotes[(i + round) % remotes.len()].clone()))
            .collect()
    } else {
        remotes.iter().cloned().map(Entrant::Remote).collect()
    };
    let builtins = usable(variant, strategies);
    let missing = players - entrants.len();
    if missing > 0 {
        if builtins.is_empty() {
            return Vec::new();
        }
        entrants.extend(
            (0..missing).map(|i| Entrant::Builtin(builtins[(i + round) % builtins.len()].clone())),
        );
    }
    // One player in every seat learns nothing about anyone (and would only make its own
    // rating look surer than it is).
    if entrants.iter().all(|e| *e == entrants[0]) {
        return Vec::new();
    }
    entrants
}

/// The entrants in the seating order of `round`: the rotations of a duplicate keep who sits
/// next to whom (who passes to whom, who leads after whom), so the order around the table
/// changes from round to round, through every one of the `(n-1)!` orders in turn, the first
/// entrant staying put. Over those rounds each entrant has every other on its left as often.
#[must_use]
pub fn seating_order(mut entrants: Vec<Entrant>, round: u64) -> Vec<Entrant> {
    if entrants.len() < 3 {
        return entrants;
    }
    let mut rest = entrants.split_off(1);
    let factorial = |n: usize| (1..=n as u64).product::<u64>();
    // The round's permutation of the others, by its Lehmer code.
    let mut code = round % factorial(rest.len());
    while !rest.is_empty() {
        let step = factorial(rest.len() - 1);
        let pick = usize::try_from(code / step).unwrap_or(0);
        code %= step;
        entrants.push(rest.remove(pick));
    }
    entrants
}

/// How many of a round's duplicate tables may be open at once: no more than any registered
/// bot among `entrants` has tables free (`free` by name; an unknown bot counts as one), and
/// all of them when only built-ins play.
#[must_use]
pub fn wave(entrants: &[Entrant], free: impl Fn(&str) -> Option<u32>) -> usize {
    entrants
        .iter()
        .filter_map(|e| match e {
            Entrant::Remote(name) => Some(free(name).unwrap_or(1) as usize),
            Entrant::Builtin(_) => None,
        })
        .min()
        .unwrap_or(entrants.len())
        .clamp(1, entrants.len().max(1))
}

/// The seats of each duplicate table: one deal, as many tables as entrants, the entrants
/// rotated one seat further at each, so every entrant plays every seat's cards.
#[must_use]
pub fn rotations(entrants: &[Entrant]) -> Vec<Vec<Entrant>> {
    let n = entrants.len();
    (0..n)
        .map(|rotation| {
            (0..n)
                .map(|i| entrants[(i + rotation) % n].clone())
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_string()).collect()
    }

    fn builtin(name: &str) -> Entrant {
        Entrant::Builtin(name.into())
    }

    fn remote(name: &str) -> Entrant {
        Entrant::Remote(name.into())
    }

    #[test]
    fn built_ins_cycle_through_the_strategies_the_variant_knows() {
        let list = names(&["random", "uva181", "strong"]);
        assert_eq!(
            entrants_for(Variant::Hearts, &list, &[], 0),
            [
                builtin("random"),
                builtin("strong"),
                builtin("random"),
                builtin("strong")
            ]
        );
        assert_eq!(
            entrants_for(Variant::Hearts, &list, &[], 1)[0],
            builtin("strong")
        );
        assert_eq!(entrants_for(Variant::Hearts5, &list, &[], 0).len(), 5);
        assert!(entrants_for(Variant::Whist, &names(&["uva181"]), &[], 0).is_empty());
        // One strategy alone plays nobody.
        assert!(entrants_for(Variant::Hearts, &names(&["heuristic"]), &[], 0).is_empty());
        assert_eq!(
            entrants_for(Variant::Hearts, &names(&["heuristic"]), &names(&["Ada"]), 0).len(),
            4
        );
    }

    #[test]
    fn online_bots_come_first_and_built_ins_fill_the_rest() {
        let list = names(&["random", "heuristic"]);
        assert_eq!(
            entrants_for(Variant::Hearts, &list, &names(&["Ada", "Bea"]), 0),
            [
                remote("Ada"),
                remote("Bea"),
                builtin("random"),
                builtin("heuristic")
            ]
        );
        // No built-in to fill with: no match.
        assert!(entrants_for(Variant::Hearts, &[], &names(&["Ada"]), 0).is_empty());
        // Enough bots: no built-in at all.
        let four = names(&["A", "B", "C", "D"]);
        assert!(
            entrants_for(Variant::Hearts, &[], &four, 0)
                .iter()
                .all(|e| matches!(e, Entrant::Remote(_)))
        );
    }

    #[test]
    fn more_bots_than_seats_take_turns() {
        let five = names(&["A", "B", "C", "D", "E"]);
        let seated = |round| -> Vec<String> {
            entrants_for(Variant::Hearts, &[], &five, round)
                .iter()
                .map(|e| e.name().to_string())
                .collect()
        };
        assert_eq!(seated(0), ["A", "B", "C", "D"]);
        assert_eq!(seated(1), ["B", "C", "D", "E"]);
        assert_eq!(seated(2), ["C", "D", "E", "A"]);
    }

    #[test]
    fn a_round_opens_no_more_tables_at_once_than_its_busiest_bot_takes() {
        let free = |name: &str| match name {
            "Ada" => Some(1),
            "Bea" => Some(3),
            _ => Some(64),
        };
        let round = |list: &[Entrant]| wave(list, free);
        let three = [builtin("random"), builtin("heuristic"), builtin("strong")];
        assert_eq!(round(&three), 3, "built-ins only: every table at once");
        assert_eq!(
            round(&[remote("Bea"), builtin("random"), builtin("random")]),
            3
        );
        assert_eq!(round(&[remote("Bea"), remote("Ada"), builtin("random")]), 1);
        assert_eq!(round(&[remote("Zed"), remote("Bea")]), 2);
    }

    #[test]
    fn the_order_around_the_table_goes_through_every_cycle() {
        let four = ["A", "B", "C", "D"].map(remote).to_vec();
        let mut left_of_a = std::collections::HashMap::new();
        let mut orders = std::collections::HashSet::new();
        for round in 0..6 {
            let order = seating_order(four.clone(), round);
            assert_eq!(order[0], remote("A"));
            *left_of_a.entry(order[1].name().to_string()).or_insert(0) += 1;
            orders.insert(order);
        }
        assert_eq!(orders.len(), 6, "six different orders");
        assert_eq!(left_of_a.len(), 3);
        assert!(left_of_a.values().all(|&n| n == 2), "{left_of_a:?}");
        assert_eq!(seating_order(four.clone(), 6), seating_order(four, 0));
    }

    #[test]
    fn each_entrant_plays_each_seat_once_across_the_rotations() {
        let entrants = [remote("A"), builtin("random"), builtin("heuristic")];
        let tables = rotations(&entrants);
        assert_eq!(tables.len(), 3);
        for seat in 0..3 {
            let mut at_seat: Vec<&str> = tables.iter().map(|t| t[seat].name()).collect();
            at_seat.sort_unstable();
            assert_eq!(at_seat, ["A", "heuristic", "random"]);
        }
    }
}
