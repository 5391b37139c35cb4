//! UVa 181 as a batch problem: read decks, play each through the `hearts5` engine with the
//! statement's fixed strategy, and print the scores dealer first.

use thiserror::Error;

use crate::bots::{Strategy, Uva181Bot};
use crate::card::{Card, CardParseError};
use crate::rules::{Game, Options, Rules, Variant};
use crate::seat::{PerSeat, Seat};
use crate::view::PlayerView;

/// Why the input could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum Uva181Error {
    /// A token is not a card.
    #[error("deck {deck}: {source}")]
    Card {
        /// The deck's number, from 1.
        deck: usize,
        /// What was wrong with the card.
        source: CardParseError,
    },
    /// A deck does not hold the 52 distinct cards.
    #[error("deck {deck}: expected 52 distinct cards, found {found} ({detail})")]
    NotADeck {
        /// The deck's number, from 1.
        deck: usize,
        /// How many cards were read.
        found: usize,
        /// What is wrong.
        detail: String,
    },
    /// The input ended before the `#` line.
    #[error("the input ended without the closing `#` line")]
    NoTerminator,
}

/// Reads decks (52 cards over any number of lines) until a line holding just `#`.
pub fn parse_decks(input: &str) -> Result<Vec<[Card; 52]>, Uva181Error> {
    let mut decks = Vec::new();
    let mut current: Vec<Card> = Vec::with_capacity(52);
    for line in input.lines() {
        if line.trim() == "#" {
            if !current.is_empty() {
                return Err(incomplete(decks.len() + 1, &current));
            }
            return Ok(decks);
        }
        for token in line.split_whitespace() {
            let card = token.parse().map_err(|source| Uva181Error::Card {
                deck: decks.len() + 1,
                source,
            })?;
            current.push(card);
            if current.len() == 52 {
                let deck: [Card; 52] = current.clone().try_into().expect("52 cards");
                let distinct = deck.iter().copied().collect::<crate::card::CardSet>().len();
                if distinct != 52 {
                    return Err(incomplete(decks.len() + 1, &current));
                }
                decks.push(deck);
                current.clear();
            }
        }
    }
    Err(Uva181Error::NoTerminator)
}

fn incomplete(deck: usize, cards: &[Card]) -> Uva181Error {
    let distinct = cards
        .iter()
        .copied()
        .collect::<crate::card::CardSet>()
        .len() as usize;
    let detail = if distinct == cards.len() {
        "the deck is short".to_string()
    } else {
        format!("{} duplicates", cards.len() - distinct)
    };
    Uva181Error::NotADeck {
        deck,
        found: cards.len(),
        detail,
    }
}

/// Plays one deck: a single `hearts5` hand with every seat on the fixed strategy. Returns the
/// scores starting with the dealer, then clockwise.
#[must_use]
pub fn play_deck(deck: [Card; 52]) -> Vec<i32> {
    let options = Options {
        hands: Some(1),
        ..Options::default()
    };
    let rules = Rules::new(Variant::Hearts5, &options).expect("valid options");
    let mut game = Game::with_rules(rules, 0, Some(deck.into()));
    let dealer = game.dealer();
    let mut bot = Uva181Bot;
    while !game.is_over() {
        let seat = game.next_to_play();
        let action = bot.choose(&PlayerView::of(&game, Some(seat)));
        game.apply(seat, &action)
            .expect("the fixed strategy only plays legal cards");
    }
    let totals: PerSeat<i32> = game.totals();
    (0..5).map(|i| totals[dealer.left(i, 5)]).collect()
}

/// Formats one output line: each score right-aligned in a field of width 3.
#[must_use]
pub fn format_scores(scores: &[i32]) -> String {
    scores.iter().map(|s| format!("{s:>3}")).collect()
}

/// Solves a whole input: one line per deck.
pub fn solve(input: &str) -> Result<String, Uva181Error> {
    let decks = parse_decks(input)?;
    Ok(decks
        .into_iter()
        .map(|d| format_scores(&play_deck(d)) + "\n")
        .collect())
}

/// The seat order of the output, for callers that want it: dealer first.
#[must_use]
pub fn output_order(dealer: Seat) -> Vec<Seat> {
    (0..5).map(|i| dealer.left(i, 5)).collect()
}
