//! Named presets: the house rules players ask for by name, as option sets the lobby offers.
//! A preset is only options: choosing one is the same as setting them by hand.

use schemars::JsonSchema;
use serde::Serialize;

use super::variant::{Moon, OhHellScoring, Options, Schedule, Variant};

/// One named set of options.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Preset {
    /// Its name, for people.
    pub name: &'static str,
    /// What it changes, in a line.
    pub description: &'static str,
    /// The options it sets (the others keep their defaults).
    pub options: Options,
}

fn preset(name: &'static str, description: &'static str, options: Options) -> Preset {
    Preset {
        name,
        description,
        options,
    }
}

/// The presets of `variant`, the rules' own first.
#[must_use]
pub fn presets(variant: Variant) -> Vec<Preset> {
    let none = Options::default;
    match variant {
        Variant::Spades => vec![
            preset(
                "Classic",
                "Game to 500, nil, bags: every 10 cost 100, mercy at -200",
                none(),
            ),
            preset(
                "Quick",
                "Game to 250",
                Options {
                    target: Some(250),
                    ..none()
                },
            ),
            preset(
                "No bags",
                "Overtricks score a point and never cost",
                Options {
                    bag_limit: Some(0),
                    ..none()
                },
            ),
            preset(
                "No nil",
                "Every bid is at least one trick",
                Options {
                    nil: Some(false),
                    ..none()
                },
            ),
            preset(
                "Blind nil",
                "A side 100 or more behind may bid nil before looking: 200 won or lost, two cards exchanged with the partner",
                Options {
                    blind_nil: Some(true),
                    ..none()
                },
            ),
            preset(
                "Spades led any time",
                "Spades may be led before one has been played",
                Options {
                    spades_broken: Some(false),
                    ..none()
                },
            ),
            preset(
                "Jokers",
                "Big and little joker above the ace of spades, instead of the 2 of clubs and 2 of diamonds",
                Options {
                    jokers: Some(true),
                    ..none()
                },
            ),
        ],
        Variant::OhHell => vec![
            preset(
                "Down and up",
                "From the largest hand down to one card and back up; the dealer's hook",
                none(),
            ),
            preset(
                "Quick",
                "From the largest hand down to one card",
                Options {
                    schedule: Some(Schedule::Down),
                    ..none()
                },
            ),
            preset(
                "No hook",
                "The dealer may bid anything",
                Options {
                    hook: Some(false),
                    ..none()
                },
            ),
            preset(
                "Minus the difference",
                "A missed bid costs a point per trick off",
                Options {
                    scoring: Some(OhHellScoring::MinusDifference),
                    ..none()
                },
            ),
        ],
        Variant::Euchre => vec![
            preset(
                "Standard",
                "Game to 10, going alone, a hand everyone passes twice is thrown in",
                none(),
            ),
            preset(
                "Stick the dealer",
                "When everyone passes twice the dealer must name trump",
                Options {
                    stick_the_dealer: Some(true),
                    ..none()
                },
            ),
            preset(
                "Defend alone",
                "A defender may defend alone: euchring the makers alone scores 4",
                Options {
                    defend_alone: Some(true),
                    ..none()
                },
            ),
            preset(
                "No going alone",
                "Every hand is played by all four",
                Options {
                    alone: Some(false),
                    ..none()
                },
            ),
            preset(
                "Short game",
                "Game to 5",
                Options {
                    target: Some(5),
                    ..none()
                },
            ),
        ],
        Variant::Bridge => vec![
            preset("Four boards", "Duplicate scoring, boards 1 to 4", none()),
            preset(
                "Eight boards",
                "Duplicate scoring, boards 1 to 8",
                Options {
                    hands: Some(8),
                    ..none()
                },
            ),
            preset(
                "Sixteen boards",
                "Every dealer and vulnerability once",
                Options {
                    hands: Some(16),
                    ..none()
                },
            ),
            preset(
                "Rubber",
                "Rubber scoring: first side to two games",
                Options {
                    rubber: Some(true),
                    ..none()
                },
            ),
        ],
        Variant::Hearts => vec![
            preset("Microsoft Hearts", "Pass three, game to 100", none()),
            preset(
                "No passing",
                "Play every hand as dealt",
                Options {
                    passing: Some(false),
                    ..none()
                },
            ),
            preset(
                "Moon subtracts",
                "Shooting the moon takes 26 off the shooter",
                Options {
                    moon: Some(Moon::Subtract),
                    ..none()
                },
            ),
        ],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn every_preset_is_a_valid_set_of_options_and_the_first_is_the_rules_own() {
        for variant in Variant::ALL {
            let presets = presets(variant);
            for preset in &presets {
                Rules::new(variant, &preset.options)
                    .unwrap_or_else(|err| panic!("{variant} {}: {err}", preset.name));
            }
            if let Some(first) = presets.first() {
                assert_eq!(first.options, Options::default(), "{variant}");
            }
        }
        assert!(presets(Variant::Spades).len() >= 4);
        assert!(presets(Variant::OhHell).len() >= 3);
        assert!(presets(Variant::Euchre).len() >= 4);
    }
}
