//! The contest line protocol, `|TYPE|KEY|DATA...|END|`: formatting the server's messages and
//! reading a program's `|RESPONSE|card|XX|END|` answers. Cards are rank + suit letters with
//! ten written `T` (`TD`, `QS`).

use parlor_shared::{Card, CardSet};

/// One protocol line (without the newline): `|TYPE|KEY|field|...|END|`.
#[must_use]
pub fn message(kind: &str, key: &str, fields: &[String]) -> String {
    let mut line = format!("|{kind}|{key}|");
    for f in fields {
        line.push_str(f);
        line.push('|');
    }
    line.push_str("END|");
    line
}

/// An `INFO` line.
#[must_use]
pub fn info(key: &str, fields: &[String]) -> String {
    message("INFO", key, fields)
}

/// The card query.
#[must_use]
pub fn query_card() -> String {
    message("QUERY", "card", &[])
}

/// A hand as one field: cards separated by spaces (`6H 7D AC`).
#[must_use]
pub fn hand_field(cards: CardSet) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a program answered to a card query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A well-formed answer naming a card (legal or not).
    Card(Card),
    /// A response that names no card (`floober`), or a line that is not a response at all.
    Garbage(String),
}

/// Reads one line as a card response. Accepts `|RESPONSE|card|XX|END|` with surrounding
/// whitespace, any case, and `10` for ten.
#[must_use]
pub fn parse_answer(line: &str) -> Answer {
    let fields: Vec<&str> = line.trim().split('|').collect();
    // "", "RESPONSE", "card", "XX", "END", ""
    let card = match fields.as_slice() {
        ["", kind, key, card, end, ""]
            if kind.eq_ignore_ascii_case("RESPONSE")
                && key.eq_ignore_ascii_case("card")
                && end.eq_ignore_ascii_case("END") =>
        {
            card.trim()
        }
        _ => return Answer::Garbage(line.to_string()),
    };
    card.parse::<Card>()
        .map_or_else(|_| Answer::Garbage(line.to_string()), Answer::Card)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_look_like_the_contest_examples() {
        let names: Vec<String> = ["Jerry", "Mitch"].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            info("start game", &names),
            "|INFO|start game|Jerry|Mitch|END|"
        );
        assert_eq!(query_card(), "|QUERY|card|END|");
        assert_eq!(info("end hand", &["2".into()]), "|INFO|end hand|2|END|");
        let hand = CardSet::parse_compact("TD AC 2H").unwrap();
        assert_eq!(hand_field(hand), "AC TD 2H");
    }

    #[test]
    fn answers_are_parsed_leniently_but_garbage_is_named() {
        assert_eq!(
            parse_answer("|RESPONSE|card|TD|END|\n"),
            Answer::Card("TD".parse().unwrap())
        );
        assert_eq!(
            parse_answer("|response|card|10h|END|"),
            Answer::Card("TH".parse().unwrap())
        );
        assert!(matches!(
            parse_answer("|RESPONSE|card|floober|END|"),
            Answer::Garbage(_)
        ));
        assert!(matches!(parse_answer("QS"), Answer::Garbage(_)));
    }
}
