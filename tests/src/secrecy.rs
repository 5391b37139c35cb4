//! The secrecy check: replays the frames one recipient got, tracking what it legitimately
//! knows at each moment from its own stream, and reports any frame holding a card it could
//! not see then.
//!
//! A recipient learns cards only from: its own `dealt` hand, `cards_passed` it gave or got,
//! cards `played`, cards turned face up (`trump_shown`, Euchre's `turned_up` and the turned
//! card the dealer `picked_up`, Bridge's `dummy_shown` and the hand faced with a `claimed`),
//! its own `discarded_card` and a `bad_card` shown to all. What
//! it knows is forgotten when a new hand starts: knowing last hand's cards says nothing about
//! this one. Every other frame (snapshots, prompts, tables, errors) may only mention cards
//! already known.

use parlor_shared::{Card, CardSet, Seat};
use serde_json::Value;

/// Checks every frame `recipient` (a seat, or `None` for a spectator) received; returns a
/// description of each violation.
#[must_use]
pub fn violations(frames: &[String], recipient: Option<Seat>) -> Vec<String> {
    let mut known = CardSet::EMPTY;
    let mut found = Vec::new();
    for (n, text) in frames.iter().enumerate() {
        let frame: Value = serde_json::from_str(text).expect("frames are JSON");
        let mut learned = CardSet::EMPTY;
        if frame["type"] == "event" {
            let event = &frame["event"];
            let seat_is = |key: &str| event[key].as_u64().map(|s| Seat(s as u8)) == recipient;
            match event["kind"].as_str().unwrap_or_default() {
                "hand_started" => known = CardSet::EMPTY,
                "dealt" if seat_is("seat") => learned = cards_in(&event["cards"]),
                "cards_passed" if seat_is("from") || seat_is("to") => {
                    learned = cards_in(&event["cards"]);
                }
                "discarded_card" if seat_is("seat") => learned = cards_in(&event["card"]),
                "dealt" | "cards_passed" | "discarded_card" => {
                    found.push(format!(
                        "frame {n}: a private event of another seat: {text}"
                    ));
                    continue;
                }
                "played" | "bad_card" => learned = cards_in(&event["card"]),
                "trump_shown" | "turned_up" | "dummy_shown" | "claimed" => {
                    learned = cards_in(&event["cards"]);
                }
                "picked_up" => learned = cards_in(&event["card"]),
                _ => {}
            }
        }
        let allowed = known | learned;
        let leaked = cards_in(&frame) - allowed;
        if !leaked.is_empty() {
            found.push(format!(
                "frame {n}: {leaked} not visible to {recipient:?} (knows {allowed}): {text}"
            ));
        }
        known = allowed;
    }
    found
}

/// Every card named anywhere in a JSON value.
#[must_use]
pub fn cards_in(value: &Value) -> CardSet {
    let mut cards = CardSet::EMPTY;
    collect(value, &mut cards);
    cards
}

fn collect(value: &Value, cards: &mut CardSet) {
    match value {
        Value::String(s) => {
            if s.len() == 2
                && let Ok(card) = s.parse::<Card>()
            {
                cards.insert(card);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect(v, cards)),
        Value::Object(map) => map.values().for_each(|v| collect(v, cards)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(json: &str) -> String {
        format!(r#"{{"type":"event","seq":1,"event":{json}}}"#)
    }

    #[test]
    fn own_cards_and_played_cards_are_fine() {
        let frames = vec![
            event(r#"{"kind":"hand_started","hand":0,"dealer":3,"pass":null}"#),
            event(r#"{"kind":"dealt","seat":0,"cards":["2C","QS"]}"#),
            r#"{"type":"your_turn","seq":2,"legal":{"type":"play","cards":["2C"]}}"#.into(),
            event(r#"{"kind":"played","seat":1,"card":"AH"}"#),
            r#"{"type":"error","code":"x","message":"you hold AH?"}"#.into(),
        ];
        assert!(violations(&frames, Some(Seat(0))).is_empty());
    }

    #[test]
    fn euchre_s_turned_card_is_public_and_a_discard_only_the_dealer_s() {
        let frames = vec![
            event(r#"{"kind":"hand_started","hand":0,"dealer":3,"pass":null}"#),
            event(r#"{"kind":"turned_up","cards":["QH"]}"#),
            event(r#"{"kind":"picked_up","seat":3,"card":"QH"}"#),
            r#"{"type":"state","seq":4,"view":{"calling":{"picked_up":"QH"}}}"#.into(),
            event(r#"{"kind":"discarded_card","seat":3,"card":"9C"}"#),
            r#"{"type":"state","seq":6,"view":{"calling":{"discarded":"9C"}}}"#.into(),
        ];
        assert!(violations(&frames, Some(Seat(3))).is_empty());
        let found = violations(&frames, Some(Seat(0)));
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("a private event of another seat"));
    }

    #[test]
    fn another_hand_or_a_forgotten_card_is_caught() {
        let frames = vec![
            event(r#"{"kind":"dealt","seat":1,"cards":["2C"]}"#),
            event(r#"{"kind":"played","seat":1,"card":"AH"}"#),
            event(r#"{"kind":"hand_started","hand":1,"dealer":0,"pass":null}"#),
            r#"{"type":"state","seq":3,"view":{"hand":["AH"]}}"#.into(),
        ];
        let found = violations(&frames, Some(Seat(0)));
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(!violations(&frames[..2], None).is_empty());
    }
}
