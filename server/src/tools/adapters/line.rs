//! The contest line protocol, `|TYPE|KEY|DATA...|END|`: formatting the server's messages and
//! reading a program's `|RESPONSE|card|XX|END|` answers as the contest's reference server
//! does. Cards are rank + suit letters with ten written `T` (`TD`, `QS`). Parlor's bids
//! (spades, ohhell) follow the same shape: `|QUERY|bid|MIN|MAX|FORBIDDEN|END|` answered by
//! `|RESPONSE|bid|N|END|`.

use parlor_shared::{Card, CardSet, Rank, Suit};

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

/// The bid query: any number from `min` to `max` but `forbidden` (`-` when every one is
/// allowed).
#[must_use]
pub fn query_bid(min: u8, max: u8, forbidden: Option<u8>) -> String {
    let forbidden = forbidden.map_or_else(|| "-".to_string(), |f| f.to_string());
    message(
        "QUERY",
        "bid",
        &[min.to_string(), max.to_string(), forbidden],
    )
}

/// Reads a bid answer as a card answer is read: the fourth `|`-separated field
/// (`|RESPONSE|bid|3|END|`), which must be a number in plain digits (`3`, `10`; not ` 3`,
/// `+3` or `three`). `None` when it is not one.
#[must_use]
pub fn parse_bid(line: &str) -> Option<u8> {
    let field = line.split('|').nth(3)?;
    if field.is_empty() || field.len() > 2 || !field.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    field.parse().ok()
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
    /// The answer's card field names a card (legal or not).
    Card(Card),
    /// The card field is not a card (`floober`, `10H`, `qs`): its text, or `None` when the
    /// line has no card field at all.
    Garbage(Option<String>),
}

/// Reads one line as the contest server does: the card is the fourth `|`-separated field
/// (`|RESPONSE|card|QS|END|`), whatever the other fields say, and it must be exactly a rank
/// `2`-`9`, `T`, `J`, `Q`, `K`, `A` and a suit `C`, `D`, `H`, `S`, in capitals.
#[must_use]
pub fn parse_answer(line: &str) -> Answer {
    let Some(field) = line.split('|').nth(3) else {
        return Answer::Garbage(None);
    };
    contest_card(field).map_or_else(|| Answer::Garbage(Some(field.to_string())), Answer::Card)
}

/// The contest's card syntax: two characters, no spaces, capitals only, ten written `T`.
fn contest_card(text: &str) -> Option<Card> {
    let mut chars = text.chars();
    let (rank, suit, None) = (chars.next()?, chars.next()?, chars.next()) else {
        return None;
    };
    let rank = "23456789TJQKA".find(rank)?;
    let suit = ['C', 'D', 'H', 'S'].iter().position(|s| *s == suit)?;
    Some(Card::new(
        Rank::from_index(rank as u8),
        Suit::from_index(suit),
    ))
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
    fn answers_are_read_as_the_contest_server_reads_them() {
        assert_eq!(
            parse_answer("|RESPONSE|card|TD|END|"),
            Answer::Card("TD".parse().unwrap())
        );
        // The fourth field is the card, whatever the keys say.
        assert_eq!(
            parse_answer("|whatever|x|QS|"),
            Answer::Card("QS".parse().unwrap())
        );
        for bad in ["10H", "th", "qs", " QS", "QS ", "floober", ""] {
            let line = format!("|RESPONSE|card|{bad}|END|");
            assert_eq!(
                parse_answer(&line),
                Answer::Garbage(Some(bad.to_string())),
                "{bad}"
            );
        }
        assert_eq!(parse_answer("QS"), Answer::Garbage(None));
    }

    #[test]
    fn bids_are_asked_and_read_in_the_same_shape() {
        assert_eq!(query_bid(0, 13, None), "|QUERY|bid|0|13|-|END|");
        assert_eq!(query_bid(0, 5, Some(2)), "|QUERY|bid|0|5|2|END|");
        assert_eq!(parse_bid("|RESPONSE|bid|3|END|"), Some(3));
        assert_eq!(parse_bid("|RESPONSE|bid|12|END|"), Some(12));
        for bad in ["", " 3", "3 ", "+3", "-1", "three", "100", "QS"] {
            assert_eq!(
                parse_bid(&format!("|RESPONSE|bid|{bad}|END|")),
                None,
                "{bad}"
            );
        }
        assert_eq!(parse_bid("3"), None);
    }
}
