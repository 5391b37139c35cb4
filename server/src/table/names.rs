//! Player names: tidied so two names that look the same are the same, and kept from posing as
//! one of the table's computer players or its host.
//!
//! It owns the naming rule only; seating decides when a name is taken. A name is put in
//! Unicode NFC, loses control, bidi (embedding, override, isolate, marks) and zero-width
//! characters, has each run of white space made one space, is trimmed, and keeps at most
//! [`MAX_NAME_CHARS`] characters. Words that mark the table's own labels (`bot`, `computer`,
//! `host`) are refused rather than silently changed, so the person sees why; so is any word
//! that looks like one of them ([`crate::skeleton`]: `Ｂｏｔ`, Greek `bοt`, `h0st`).

use thiserror::Error;
use unicode_normalization::UnicodeNormalization;

use crate::skeleton::skeleton;

/// Longest name shown for a player, in characters.
pub const MAX_NAME_CHARS: usize = 32;

/// Words a person's name may not contain: the table's labels for its computer players.
const COMPUTER_WORDS: [&str; 4] = ["bot", "bots", "computer", "cpu"];

/// Words nobody's name may contain: the host's label.
const HOST_WORDS: [&str; 1] = ["host"];

/// Why a name was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NameError {
    /// The name would pass for a computer player or the host.
    #[error(
        "a name may not say `{word}`, nor anything that looks like it: the table uses that word \
         for its computer players and its host; choose another name"
    )]
    Poses {
        /// The reserved word it says or looks like.
        word: String,
    },
}

/// Characters that show nothing yet change the text around them: bidi embeddings, overrides,
/// isolates and marks could make a line read backwards or run into the names shown beside it,
/// and zero-width or format characters hide inside words or pass for an empty line.
pub(crate) fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00AD}'                 // soft hyphen
            | '\u{034F}'               // combining grapheme joiner
            | '\u{061C}'               // Arabic letter mark
            | '\u{115F}' | '\u{1160}' // Hangul fillers
            | '\u{17B4}' | '\u{17B5}'
            | '\u{180B}'..='\u{180F}' // Mongolian selectors and vowel separator
            | '\u{200B}'..='\u{200F}' // zero-width space/joiners, LRM, RLM
            | '\u{202A}'..='\u{202E}' // bidi embeddings and overrides
            | '\u{2060}'..='\u{206F}' // word joiner, invisible operators, bidi isolates
            | '\u{3164}'               // Hangul filler
            | '\u{FEFF}'               // zero-width no-break space
            | '\u{FFA0}'
            | '\u{FFF9}'..='\u{FFFB}' // interlinear annotation
            | '\u{1BCA0}'..='\u{1BCA3}' // shorthand format controls
            | '\u{1D173}'..='\u{1D17A}' // musical format controls
            | '\u{E0000}'..='\u{E007F}' // tags
        )
}

/// What a name loses: the [`hidden`] characters, and the variation selectors too (they only
/// pick how an emoji is drawn, which a chat line may keep but a name need not).
fn invisible(c: char) -> bool {
    hidden(c) || matches!(c, '\u{FE00}'..='\u{FE0F}')
}

/// A name as the table shows it: `None` when nothing is left (the seat then shows no name).
/// `program` is true for a remote program's seat, which may call itself a bot.
pub fn clean_name(name: Option<&str>, program: bool) -> Result<Option<String>, NameError> {
    let Some(name) = name else { return Ok(None) };
    let mut out = String::new();
    let mut space = false;
    for c in name.nfc() {
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if c.is_control() || invisible(c) {
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(c);
    }
    let name: String = out.chars().take(MAX_NAME_CHARS).collect();
    let name = name.trim_end();
    if name.is_empty() {
        return Ok(None);
    }
    check_words(name, program)?;
    Ok(Some(name.to_string()))
}

/// Refuses a name with a reserved word in it, or a word that looks like one (letters and
/// digits only count, in any case).
fn check_words(name: &str, program: bool) -> Result<(), NameError> {
    let computer: &[&str] = if program { &[] } else { &COMPUTER_WORDS };
    let reserved: Vec<(&str, String)> = HOST_WORDS
        .iter()
        .chain(computer)
        .map(|&w| (w, look(w)))
        .collect();
    for word in name.split(|c: char| !c.is_alphanumeric()) {
        if word.is_empty() {
            continue;
        }
        let looks = look(word);
        if let Some((found, _)) = reserved.iter().find(|(_, r)| *r == looks) {
            return Err(NameError::Poses {
                word: (*found).to_string(),
            });
        }
    }
    Ok(())
}

/// What a word looks like, for the reserved words: its skeleton, with the digits that stand
/// for letters read as letters. TR39 reads `0` as `O` and `1` as `l` but no other digit, and
/// `h05t` or `8ot` would still be read as `host` and `bot`.
fn look(word: &str) -> String {
    skeleton(word)
        .chars()
        .map(|c| match c {
            '3' => 'e',
            '4' => 'a',
            '5' => 's',
            '7' => 't',
            '8' => 'b',
            other => other,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(name: &str) -> Result<Option<String>, NameError> {
        clean_name(Some(name), false)
    }

    #[test]
    fn names_are_tidied() {
        assert_eq!(person("  Ann  ").unwrap().as_deref(), Some("Ann"));
        assert_eq!(person("Ann \t\n  Lee").unwrap().as_deref(), Some("Ann Lee"));
        // Decomposed é (e + combining acute) becomes the one composed character.
        assert_eq!(person("Re\u{301}ne").unwrap().as_deref(), Some("R\u{e9}ne"));
        assert_eq!(
            person("A\u{202E}nn\u{2066}").unwrap().as_deref(),
            Some("Ann")
        );
        assert_eq!(
            person("A\u{200B}n\u{200D}n\u{FEFF}").unwrap().as_deref(),
            Some("Ann")
        );
        assert_eq!(person("A\u{7}nn\u{1b}").unwrap().as_deref(), Some("Ann"));
        assert_eq!(person("\u{200B} \u{202E}").unwrap(), None);
        assert_eq!(clean_name(None, false).unwrap(), None);
        let long = "x".repeat(40);
        assert_eq!(
            person(&long).unwrap().unwrap().chars().count(),
            MAX_NAME_CHARS
        );
    }

    #[test]
    fn a_name_cannot_pose_as_a_computer_or_the_host() {
        for name in [
            "heuristic bot",
            "Strong BOT",
            "Computer",
            "Ada (computer)",
            "Ann (host)",
            "HOST",
            "b\u{200B}ot",
            "ho\u{202E}st",
            // Look-alikes: fullwidth, Greek omicron, mathematical bold, Cyrillic capitals,
            // circled letters, digits for letters.
            "\u{FF22}\u{FF4F}\u{FF54}",
            "b\u{3BF}t",
            "\u{1D41B}\u{1D428}\u{1D42D}",
            "H\u{3BF}st",
            "\u{41D}\u{41E}\u{405}\u{422}",
            "\u{24D1}\u{24DE}\u{24E3}",
            "h0st",
            "H05T",
            "8ot",
            "c0mpu7er",
            "Ann (\u{FF48}ost)",
        ] {
            assert!(
                matches!(person(name), Err(NameError::Poses { .. })),
                "{name:?}"
            );
        }
        for name in [
            "Robot Rob",
            "Abbott",
            "Hostetler",
            "Ada",
            "Bert",
            "Bat",
            "Boot",
            "Hosta",
            "Zo\u{EB}",
            "Agent 007",
        ] {
            assert!(person(name).is_ok(), "{name:?}");
        }
        // A program may say it is a bot, never that it is the host.
        assert_eq!(
            clean_name(Some("strong bot"), true).unwrap().as_deref(),
            Some("strong bot")
        );
        assert!(clean_name(Some("host bot"), true).is_err());
        assert!(clean_name(Some("\u{FF22}\u{FF4F}\u{FF54}"), true).is_ok());
        assert_eq!(
            clean_name(Some("h0st"), true),
            Err(NameError::Poses {
                word: "host".into()
            })
        );
    }
}
